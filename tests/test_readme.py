"""README.md is a manual (issue 27): the two commands a new user needs first, under 350 lines,
and every link it gives leads to a file of the repository and a heading that exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def _anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return {_anchor(line.lstrip("#")) for line in lines if line.startswith("#")}


def test_the_two_commands_come_first_and_it_stays_short() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) < 350, f"README.md has {len(lines)} lines: move detail to docs/"
    top = "\n".join(lines[:5])
    assert "make run" in top and "make test" in top


def test_every_link_leads_somewhere() -> None:
    text = README.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    assert links
    for link in links:
        if link.startswith(("http://", "https://")):
            continue
        target, _, anchor = link.partition("#")
        path = ROOT / target if target else README
        assert path.exists(), f"README links to {link}: no such file"
        if anchor and path.suffix == ".md":
            assert anchor in _anchors(path), f"README links to {link}: no such heading"
