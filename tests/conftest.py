"""Shared test setup: Hypothesis profiles, the import path of the test helpers, and the web
app's test client (fixtures ``db`` and ``c``).

Profiles (pick one with ``HYPOTHESIS_PROFILE=name``, or pytest's ``--hypothesis-profile``):

``ci`` (default)
    few examples per property, so ``pytest -n 2`` stays within a couple of minutes;
``thorough``
    many more examples, for a long hunt (``HYPOTHESIS_PROFILE=thorough pytest -n auto``);
``quick``
    a smoke run while editing.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# The suite runs pure Python unless told otherwise: many tests replace a method or a function
# of the rules with monkeypatch, or hand a search internals of the wrong type, which compiled
# code does not allow. The compiled path (the default of every run) is tested in child
# processes by tests/test_compiled.py: the same games, the same errors, the modules a plain
# `rulebook simulate` loads. RULEBOOK_COMPILED=1 make unit runs the whole suite compiled.
os.environ.setdefault("RULEBOOK_COMPILED", "0")
# The servers the tests start (`rulebook serve`) refuse nothing for their event loop's lag: a
# test machine running two test workers and a browser is slow by moments, and its tests are
# not about load (tests/test_web_overload*.py set the load by hand).
os.environ.setdefault("RULEBOOK_OVERLOAD_LAG", "0")

# the property library (tests/properties.py) is imported as a plain module
_TESTS = str(Path(__file__).resolve().parent)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

# what every profile shares: whole games per example, so timings vary and are not tested
settings.register_profile(
    "base",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,  # a failure prints the @reproduce_failure blob
)
_BASE = settings.get_profile("base")
settings.register_profile("ci", _BASE, max_examples=12)
settings.register_profile("thorough", _BASE, max_examples=400)
settings.register_profile("quick", _BASE, max_examples=3)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``pytest -n 2 --dist loadgroup`` (``make unit``) sends each ``xdist_group`` to one
    worker: one server and one browser per module. pytest-xdist 3.8 marks a test's group by
    appending ``@group`` to its ``_nodeid``, which pytest 9.2 no longer reads (its node ids
    are ``_id``; pytest-xdist issue 1386): every group was split across the workers, each
    starting the module's servers again. Done here the way pytest 9.2 keeps ids, on a worker
    asked for loadgroup only, and only where xdist's own marking did not take."""
    if not getattr(config.option, "loadgroup", False):
        return
    from _pytest.nodeid import NodeId  # pytest's own type of node id (9.2)

    for item in items:
        names = {
            str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
            for mark in item.iter_markers("xdist_group")
        }
        nodeid = item.nodeid
        if names and nodeid.rfind("@") <= nodeid.rfind("]"):
            item._id = NodeId.parse(f"{nodeid}@{'_'.join(sorted(names))}")


# the web app's tests: a throwaway SQLite file, and a test client of an app storing in it
@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def c(db: Path) -> Iterator[Any]:
    from webtools import client  # the web extra, imported by the web tests only

    with client(db) as test_client:
        yield test_client


# -- the browser tests' shared fixtures (one browser and one screenshot folder per module) -------
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium, headless, driven by Playwright (skipped without Playwright)."""
    pytest.importorskip("playwright.sync_api")
    from boardpages import chromium

    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where a browser test's screenshots go: a temporary folder, or ``$RULEBOOK_SCREENSHOTS``
    (``RULEBOOK_SCREENSHOTS=docs/screenshots pytest tests/test_web_browser.py`` renews the ones
    kept there)."""
    wanted = os.environ.get("RULEBOOK_SCREENSHOTS")
    if not wanted:
        return tmp_path_factory.mktemp("screenshots")
    folder = Path(wanted)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
