"""The web app: play any game in the browser, online with friends or against bots.

FastAPI + Uvicorn, SQLAlchemy 2 (SQLite by default, PostgreSQL by URL), Jinja2 pages and plain
ES modules. The server and the pages see games only through :mod:`rulebook.core`; every payload a
viewer receives is built by :mod:`rulebook.web.views`. ``rulebook serve`` starts it.
"""

from rulebook.web.app import create_app
from rulebook.web.settings import Settings

__all__ = ["Settings", "create_app"]
