"""docs/ holds manuals: each at most ~400 lines, current state first, its history in
docs/history/; manuals and the code speak of the project, not of the issues it came through; and
every link of every page leads to a file of the repository and a heading that exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from test_readme import ROOT, _anchors

DOCS = ROOT / "docs"
MANUALS = sorted(DOCS.glob("*.md"))
PAGES = [ROOT / "README.md", *MANUALS, *sorted((DOCS / "history").glob("*.md"))]
#: where the code and the manuals are read for "issue N"
SOURCES = ("*.py", "*.js", "*.css", "*.html", "*.toml")
ISSUE = re.compile(r"\bissues? #?\d+", re.IGNORECASE)


@pytest.mark.parametrize("page", MANUALS, ids=[p.name for p in MANUALS])
def test_a_manual_is_at_most_400_lines(page: Path) -> None:
    lines = len(page.read_text(encoding="utf-8").splitlines())
    assert lines <= 400, f"{page.name} has {lines} lines: its history belongs in docs/history/"


def test_manuals_and_code_speak_of_the_project_not_of_its_issues() -> None:
    found = []
    files = [ROOT / "README.md", *MANUALS]
    for pattern in SOURCES:
        for folder in ("src", "benchmarks", "examples"):
            files += sorted((ROOT / folder).rglob(pattern))
    for path in files:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if ISSUE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:80]}")
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_link_of_a_page_leads_somewhere(page: Path) -> None:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    for link in re.findall(r"\]\(([^)\s]+)\)", text):
        if link.startswith(("http://", "https://", "mailto:")):
            continue
        target, _, anchor = link.partition("#")
        path = (page.parent / target).resolve() if target else page
        assert path.exists(), f"{page.name} links to {link}: no such file"
        if anchor and path.suffix == ".md":
            assert anchor in _anchors(path), f"{page.name} links to {link}: no such heading"
