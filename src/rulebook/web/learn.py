"""Learning a game in the page: its how-to-play as HTML (the same ``rules.md`` as ``rulebook
rules GAME``), its card reference (``Game.cards`` of each configuration whose cards differ,
authored cards marked), and its first-turn guide (:mod:`rulebook.core.guide`). Everything comes
from the game's data package; nothing here knows a game.

Markdown is rendered by markdown-it-py with raw HTML off (any ``<tag>`` in a rules file is
shown as text) and its own link checks (no ``javascript:`` links), so the HTML is safe to place
in a page as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from markdown_it import MarkdownIt
from markupsafe import Markup

from rulebook.core import Game, Setup, get_game
from rulebook.core.game import ANCHOR
from rulebook.core.guide import guide

_MD = MarkdownIt("commonmark", {"html": False}).enable("table")
#: every id a rules file gives starts so, apart from the page's own ids (``#moves``)
ID_PREFIX = "rules-"


@dataclass(frozen=True)
class Rules:
    """A how-to-play as HTML, with its sections (id, heading) for a table of contents."""

    html: Markup
    sections: tuple[tuple[str, str], ...]


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


@cache
def rules(game_name: str) -> Rules | None:
    """The how-to-play of a game as HTML (None when it has none): :func:`render`."""
    text = get_game(game_name).how_to_play(anchors=True)
    return None if text is None else render(text)


def render(text: str) -> Rules:
    """Markdown as HTML, raw HTML shown as text. Headings get ids (``rules-`` + their anchor,
    ``{#solo}``, or their words), and the second-level ones are the sections."""
    tokens = _MD.parse(text)
    sections = []
    used: set[str] = set()
    for i, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        inline = tokens[i + 1]
        found = re.search(r"\{#([a-z0-9-]+)\}\s*$", inline.content)
        words = ANCHOR.sub("", inline.content).strip()
        for child in inline.children or []:
            if child.type == "text":
                child.content = ANCHOR.sub("", child.content)
        anchor = ID_PREFIX + (found.group(1) if found else _slug(words))
        while anchor in used:
            anchor += "-"
        used.add(anchor)
        token.attrSet("id", anchor)
        if token.tag == "h2":
            sections.append((anchor, words))
    html = _MD.renderer.render(tokens, _MD.options, {})
    return Rules(Markup(html), tuple(sections))


def jump_ids(setup: Setup) -> list[str]:
    """The ids of the how-to-play sections about this configuration, as the rules files name
    them: the variant (``rules-solo``) and the player count (``rules-players-2``)."""
    return [f"{ID_PREFIX}{setup.variant}", f"{ID_PREFIX}players-{setup.players}"]


# -- the card reference --------------------------------------------------------------------------
@dataclass(frozen=True)
class CardSet:
    """The cards of the configurations that share them: ``key`` names it in the page's
    address (``standard-2``), ``label`` for people."""

    key: str
    label: str
    cards: tuple[dict[str, Any], ...]


def _span(counts: list[int]) -> str:
    low, high = min(counts), max(counts)
    if low == high:
        return f"{low} player{'s' if low > 1 else ''}"
    return f"{low}-{high} players"


@cache
def card_sets(game_name: str) -> tuple[CardSet, ...]:
    """A game's card sets: one per group of configurations (variant and player count, default
    options) with the same cards, in the order the game lists its variants."""
    game = get_game(game_name)
    if game.cards is None:
        return ()
    groups: dict[tuple[tuple[str, str, str], ...], list[tuple[str, int]]] = {}
    for v in game.variants:
        for n in range(v.min_players, v.max_players + 1):
            texts = game.card_texts(game.setup(n, 0, v.name))
            key = tuple((name, text, why) for name, (text, why) in texts.items())
            groups.setdefault(key, []).append((v.name, n))
    sets = []
    for key, configs in groups.items():
        variants = list(dict.fromkeys(v for v, _ in configs))
        if len(groups) == 1:
            label, slug = "every variant and player count", "all"
        else:
            label = "; ".join(f"{v}, {_span([n for w, n in configs if w == v])}" for v in variants)
            slug = f"{configs[0][0]}-{configs[0][1]}"
        cards = tuple({"name": name, "text": text, "authored": why} for name, text, why in key)
        sets.append(CardSet(slug, label, cards))
    return tuple(sets)


def card_set(game_name: str, key: str | None) -> CardSet | None:
    """The set named ``key`` (the first when ``key`` is None or unknown)."""
    sets = card_sets(game_name)
    if not sets:
        return None
    return next((s for s in sets if s.key == key), sets[0])


def set_for(setup: Setup) -> str:
    """The key of the card set of a configuration (for the game page's link)."""
    game: Game = get_game(setup.game)
    if game.cards is None:
        return ""
    texts = game.card_texts(game.setup(setup.players, 0, setup.variant))
    wanted = tuple({"name": n, "text": t, "authored": w} for n, (t, w) in texts.items())
    return next((s.key for s in card_sets(setup.game) if s.cards == wanted), "")


def guide_steps(setup: Setup) -> list[dict[str, Any]]:
    """The first-turn guide of a configuration, for the page's script."""
    return [{"target": s.target, "title": s.title, "text": s.text} for s in guide(setup)]
