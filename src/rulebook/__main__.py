"""``python -m rulebook``: the ``rulebook`` command line."""

from rulebook.cli import app

if __name__ == "__main__":
    app(prog_name="rulebook")
