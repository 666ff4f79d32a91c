"""The terminal view of an Archmagi table, drawn from one seat's observation only."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from rulebook.archmagi.content import content
from rulebook.core import State


def _counted(names: list[str]) -> str:
    counts: dict[str, int] = {}
    for n in names:
        counts[n] = counts.get(n, 0) + 1
    return ", ".join(f"{n} x{k}" if k > 1 else n for n, k in counts.items()) or "-"


#: what each pending decision asks, for the terminal
ASKS = {
    "discard": "discard a Spell from your Hand",
    "limit": "discard down to the hand limit of 10",
    "plant": "Plant a Spell from your Hand",
    "uproot": "Uproot a Planted Spell",
    "search": "Search: take one Spell into your Hand",
    "return": "put the rest back on the Magic Pool (the last returned lies on top)",
    "look": "Draft one of the top Spells of your Spell Book",
    "draft": "Round 4: Draft from your Spell Book, or Draw instead",
    "may": "you may",
    "flow": "Flow of Magic: take the discarded Spell of your element, or pass",
    "pay": "Flow of Magic: discard a Spell to take it",
}


def _choice_text(choice: dict[str, Any], player: int) -> str:
    who = "you" if choice["seat"] == player else f"seat {choice['seat']}"
    kind = choice["kind"]
    text = f"waiting for {who}: {ASKS.get(kind, kind)}"
    if "spell" in choice:
        text += f" ({choice['spell']})"
    if "looking" in choice:
        text += f"; looking at: {', '.join(choice['looking'])}"
    if "effects" in choice:
        text += f": {', '.join(choice['effects'])}"
    return text


def _ability(element: str) -> Text:
    """The viewer's Magi Ability Card (public: each Magi sits openly at the table)."""
    magi = next(m for m in content().magi if m.element == element)
    return Text.assemble((f"You are the {magi.name}: ", "bold"), magi.ability)


def _hand(names: list[str]) -> RenderableType:
    """The viewer's Hand with each Spell's element and Actions (the printed card texts)."""
    if not names:
        return Text.assemble(("Your hand: ", "bold"), "-")
    spells = {s.name: s for s in content().cards}
    hand = Table(title="Your hand", header_style="bold", show_edge=False)
    for name in ("spell", "element", "top action", "bottom action"):
        hand.add_column(name)
    counts: dict[str, int] = {}
    for n in names:
        counts[n] = counts.get(n, 0) + 1
    for n, k in counts.items():
        spell = spells[n]
        hand.add_row(
            f"{n} x{k}" if k > 1 else n,
            spell.element,
            ", ".join(e.text() for e in spell.top),
            ", ".join(e.text() for e in spell.bottom) or "-",
        )
    return hand


def render(state: State, player: int) -> RenderableType:
    """The table as ``player`` sees it: Round, Paths, seats, own Hand, the pending decision."""
    obs = state.observation(player)
    head = Text.assemble(
        (f"Round {obs['round']}/{obs['rounds']}", "bold"),
        ("  (last turn)" if obs["last_turn"] else ""),
        f"   Magic Pool: {obs['magic_pool']}   turn: seat {obs['turn']} ({obs['phase']}",
        f", {obs['plays']} plays left)" if obs["phase"] == "play" else ")",
    )
    paths = Table(title="Monster Paths", header_style="bold", show_edge=False)
    for name in ("tier", "monster", "cost", "reward", "favor"):
        paths.add_column(name)
    for tier, path in enumerate(obs["paths"], start=1):
        for m in path:
            paths.add_row(
                str(tier),
                m["name"],
                f"{m['crystals']} crystals" + (f" + {m['spells']} spells" if m["spells"] else ""),
                ", ".join(m["reward"]) or "-",
                str(m["favor"]),
            )
        if not path:
            paths.add_row(str(tier), "(none yet)", "", "", "")
    seats = Table(title="Magi", header_style="bold", show_edge=False)
    for name in ("seat", "magi", "favor", "crystals", "hand", "book", "planted", "monsters"):
        seats.add_column(name)
    for p, seat in enumerate(obs["seats"]):
        seats.add_row(
            f"{p}{' (you)' if p == player else ''}",
            seat["magi"],
            str(seat["favor"]),
            str(seat["crystals"]),
            str(seat["hand"]),
            str(seat["spell_book"]),
            _counted(seat["planted"]),
            ", ".join(seat["monsters"]) or "-",
        )
    parts: list[RenderableType] = [
        head,
        paths,
        seats,
        _ability(obs["seats"][player]["element"]),
        Text(f"Play area: {_counted(obs['play_area'])}"),
        Text(
            f"Discard pile: {len(obs['discard_pile'])} spells"
            + (f" (top: {obs['discard_pile'][-1]})" if obs["discard_pile"] else "")
            + f"; exhausted: {len(obs['exhausted'])}"
        ),
        _hand(obs["hand"]),
    ]
    if obs["choice"] is not None:
        parts.append(Text(_choice_text(obs["choice"], player), style="bold cyan"))
    if obs["phase"] == "over":
        parts.append(Text(f"Game over. Winners: {obs['winners']}", style="bold magenta"))
    return Group(*parts)
