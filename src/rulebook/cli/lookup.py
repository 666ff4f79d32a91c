"""Looking things up at the prompt and on the command line: a card's text, the rules."""

from __future__ import annotations

import difflib
from collections.abc import Mapping

from rich.console import RenderableType
from rich.markdown import Markdown
from rich.text import Text

from rulebook.core import Game, Setup


def card_texts(game: Game, setup: Setup) -> Mapping[str, str]:
    """The named cards of the configuration with their texts (empty when the game has none)."""
    return game.cards(setup) if game.cards is not None else {}


def find_card(cards: Mapping[str, str], query: str) -> tuple[str | None, list[str]]:
    """The card ``query`` names (case ignored; a unique start or part of a name will do),
    or None and the names it may have meant."""
    wanted = " ".join(query.casefold().split())
    by_key = {name.casefold(): name for name in cards}
    if wanted in by_key:
        return by_key[wanted], []
    for test in (str.startswith, str.__contains__):
        hits = [name for key, name in by_key.items() if test(key, wanted)]
        if len(hits) == 1:
            return hits[0], []
        if hits:
            return None, sorted(hits)[:8]
    close = difflib.get_close_matches(wanted, list(by_key), n=4, cutoff=0.6)
    return None, [by_key[key] for key in close]


def card_view(game: Game, setup: Setup, query: str) -> tuple[RenderableType, bool]:
    """What ``card NAME`` shows (and whether a card was found): its text; or the names
    meant, or every name when ``query`` is empty."""
    cards = card_texts(game, setup)
    if not cards:
        return Text(f"{game.title} has no named cards to look up."), False
    if not query.strip():
        names = ", ".join(sorted(cards))
        return Text(f"Cards of this game (card NAME shows one): {names}"), False
    name, near = find_card(cards, query)
    if name is not None:
        return Text.assemble((name, "bold"), ": ", cards[name]), True  # authored ones say so
    if near:
        return Text(f"No card called {query.strip()!r}. Did you mean: {', '.join(near)}?"), False
    return Text(f"No card called {query.strip()!r} (card alone lists them all)."), False


def rules_view(game: Game) -> RenderableType:
    """The game's how-to-play, as Markdown."""
    text = game.how_to_play()
    if text is None:
        return Text(f"No how-to-play is written for {game.title} yet.")
    return Markdown(text)
