"""How to play states every rule a player needs (issue 38): for each game, its rulebook's
sections and the How to play passage (``rules.md``) that covers each are listed as data,
``src/rulebook/GAME/data/howto_sections.toml`` (shipped with the game's data), and this test
holds ``rules.md`` to that list:

- every entry names a section anchor of ``rules.md`` (``## Your turn {#turn}``: ``turn``), and
  the words it ``says`` stand in that passage (case, line breaks and Markdown emphasis aside),
  so an edit that drops the rule fails; an entry with no passage (``howto = ""``) says ``why``;
- every section of the code map (``tests/sections/GAME.toml``, rulebook section -> module) is
  in the list, so both maps grow together;
- each title is found in the rulebook's text, when the rulebooks are on this machine.

The file, one per game::

    rulebook = "001_44ef98e54b9802c2.txt"
    [[section]]
    title = "Battles"                    # the rulebook's heading (case aside)
    howto = "season"                     # the rules.md anchor that covers it
    says = "Vorpal beats Standard"       # words that passage must contain (or a list of them)

Numbers How to play copies from authored data are checked against the data here too (the
Merchants of Magick Sponsored Adventurers), so that a retuned value cannot leave it behind.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from pydantic import Field, model_validator

import rulebook
from rulebook.core.data import DataError, Strict, load
from rulebook.core.game import ANCHOR
from rulebook.web.learn import _slug

SECTIONS = Path(__file__).parent / "sections"
RULEBOOKS = Path(__file__).resolve().parents[2] / "shared" / "rulebooks"
if not RULEBOOKS.is_dir():
    RULEBOOKS = Path("/work/shared/rulebooks")
FILE = "howto_sections.toml"
#: numbers as How to play writes them
NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
GAMES = rulebook.games()


class HowtoSection(Strict):
    """One rulebook section and the How to play passage covering it."""

    title: str = Field(min_length=1)
    #: the rules.md section anchor, or "" for a section How to play leaves out
    howto: str = Field(pattern=r"^[a-z0-9-]*$")
    #: words the passage must contain (one text or several)
    says: str | list[str] = ""
    #: why How to play leaves the section out (only with howto = "")
    why: str = ""

    @model_validator(mode="after")
    def _covered_or_why(self) -> HowtoSection:
        if self.howto and not self.phrases():
            raise ValueError(f"{self.title!r}: says what its passage must contain")
        if not self.howto and (not self.why.strip() or self.phrases()):
            raise ValueError(f"{self.title!r}: a section with no passage gives only 'why'")
        return self

    def phrases(self) -> list[str]:
        said = [self.says] if isinstance(self.says, str) else self.says
        return [s for s in said if s.strip()]


class HowtoFile(Strict):
    rulebook: str
    section: list[HowtoSection] = Field(min_length=1)


def folded(text: str) -> str:
    """Text as compared: Markdown emphasis and code marks out, whitespace collapsed, no case."""
    return re.sub(r"\s+", " ", re.sub(r"[*`]", "", text)).strip().casefold()


def passages(markdown: str) -> dict[str, str]:
    """Each heading's passage of a rules.md, by its anchor (``{#turn}``, else the slug of its
    words, as the web page's ids): the heading and what follows, up to the next heading of
    its level or above."""
    lines = markdown.splitlines()
    heads = []
    for i, line in enumerate(lines):
        found = re.match(r"^(#{1,6})\s+(.*)$", line)
        if found:
            words = found.group(2)
            anchor = re.search(r"\{#([a-z0-9-]+)\}\s*$", words)
            heads.append(
                (
                    i,
                    len(found.group(1)),
                    anchor.group(1) if anchor else _slug(ANCHOR.sub("", words)),
                )
            )
    out = {}
    for k, (i, level, anchor) in enumerate(heads):
        end = next((j for j, lv, _ in heads[k + 1 :] if lv <= level), len(lines))
        out[anchor] = "\n".join(lines[i:end])
    return out


def uncovered(entries: list[HowtoSection], markdown: str) -> list[str]:
    """What ``markdown`` fails of ``entries``: anchors it lacks, words missing from a passage."""
    parts = {anchor: folded(text) for anchor, text in passages(markdown).items()}
    problems = []
    for entry in entries:
        if not entry.howto:
            continue
        if entry.howto not in parts:
            problems.append(f"{entry.title!r}: rules.md has no section {{#{entry.howto}}}")
            continue
        for phrase in entry.phrases():
            if folded(phrase) not in parts[entry.howto]:
                problems.append(f"{entry.title!r}: {{#{entry.howto}}} does not say {phrase!r}")
    return problems


def howto_file(game: str) -> HowtoFile:
    package = rulebook.get_game(game).data_package
    assert package is not None, f"{game} has no data package"
    return load(HowtoFile, package, FILE)


def how_to_play(game: str) -> str:
    text = rulebook.get_game(game).how_to_play(anchors=True)
    assert text is not None, f"{game} has no rules.md"
    return text


# -- the list holds How to play to the rulebook ------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_every_rulebook_section_has_its_passage(game: str) -> None:
    data = howto_file(game)
    assert data.rulebook == rulebook.get_game(game).rulebook
    assert uncovered(data.section, how_to_play(game)) == []


@pytest.mark.parametrize("game", GAMES)
def test_the_code_maps_sections_are_all_listed(game: str) -> None:
    """Every section of tests/sections/GAME.toml (where the code implements it) is a section
    How to play covers or says why it leaves out."""
    with (SECTIONS / f"{game}.toml").open("rb") as handle:
        code_map = tomllib.load(handle)
    listed = {folded(s.title) for s in howto_file(game).section}
    missing = sorted({s["title"] for s in code_map["section"] if folded(s["title"]) not in listed})
    assert not missing, f"{game}: sections of tests/sections/{game}.toml not in {FILE}"


@pytest.mark.skipif(not RULEBOOKS.is_dir(), reason="the rulebooks are not on this machine")
@pytest.mark.parametrize("game", GAMES)
def test_titles_are_the_rulebooks_own(game: str) -> None:
    data = howto_file(game)
    text = folded((RULEBOOKS / data.rulebook).read_text(encoding="utf-8"))
    missing = [s.title for s in data.section if folded(s.title) not in text]
    assert not missing, f"{game}: sections the rulebook does not head so: {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_a_dropped_passage_fails(game: str) -> None:
    """The check can fail: How to play without any one of the passages the list points at, or
    with the words of one entry taken out of it, is refused."""
    data = howto_file(game)
    text = how_to_play(game)
    parts = passages(text)
    for anchor in {s.howto for s in data.section if s.howto}:
        assert uncovered(data.section, text.replace(parts[anchor], "")), anchor
    entry = next(s for s in data.section if s.howto)
    part = parts[entry.howto]
    dropped = part.replace(entry.phrases()[0], "")
    if dropped == part:  # the words run over a line break or emphasis: drop the passage's body
        dropped = part.splitlines()[0]
    assert uncovered([entry], text.replace(part, dropped))


def test_a_bad_list_is_refused(tmp_path: Path) -> None:
    """The list is validated as it is loaded: an entry with no passage must say why."""
    with pytest.raises(ValueError, match="says what its passage must contain"):
        HowtoSection(title="Battles", howto="season")
    with pytest.raises(ValueError, match="gives only 'why'"):
        HowtoSection(title="Credits", howto="")
    assert HowtoSection(title="Credits", howto="", why="names, no rule").why
    with pytest.raises(ValueError):
        HowtoSection(title="Battles", howto="Season!", says="x")
    with pytest.raises(ValueError):
        HowtoFile.model_validate({"rulebook": "x.txt", "section": [], "extra": 1})
    assert issubclass(DataError, ValueError)


# -- numbers How to play copies from the data --------------------------------------------------
def test_merchants_of_magick_adventurers_as_the_data_says() -> None:
    """How to play's Sponsored Adventurer rewards (3 Potions, then free marks) and its table of
    the eight cards (Enchantment, items, Coins) are the data's (game.toml, adventurers.toml),
    as are the Potion Supplier's Potions and the Extra Dice costs it gives."""
    from rulebook.core.words import plural
    from rulebook.merchants_of_magick.content import content

    c = content()
    text = passages(how_to_play("merchants-of-magick"))
    rules = folded(text["round"])
    r = c.rewards
    expected = (
        f"the first wish fulfilled gives you {plural(r.first_potions, 'potion')}; the second, "
        f"{r.second_free_marks} free mark on any circle of your sheet; the third, "
        f"{r.third_free_marks} more free mark and the coins on its card"
    )
    assert folded(expected) in rules
    table = re.findall(r"^\| ([^|]+?) \| ([^|]+?) \| ([^|]+?) \| (\d+) \|$", text["round"], re.M)
    names = {row.id: row.name for row in c.layout.rows}
    assert table == [
        (a.name, names[a.enchantment], ", ".join(names[i] for i in a.items), str(a.coins))
        for a in c.adventurers
    ]
    supplier = next(row for row in c.rows if row.potions is not None)
    assert folded(f"{supplier.name} gives {supplier.potions} instead") in rules
    paid = [cost for cost in c.extra_dice_costs if cost]
    free = len(c.extra_dice_costs) - len(paid)
    said = f"{NUMBERS[len(c.extra_dice_costs)]} Extra Dice slots"
    assert folded(said) in rules
    costs = f"{', '.join(map(str, paid[:-1]))} and {paid[-1]}"
    said = f"the first {NUMBERS[free]} are free, the next {NUMBERS[len(paid)]} cost {costs} Potions"
    assert folded(said) in rules
