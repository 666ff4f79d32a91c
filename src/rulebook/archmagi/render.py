"""The terminal view of an Archmagi table, drawn from one seat's observation only."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from rulebook.archmagi.content import content
from rulebook.core import Action, State, View
from rulebook.core.words import seat as seat_name


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
    who = "you" if choice["seat"] == player else seat_name(choice["seat"])
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


def _head(obs: dict[str, Any]) -> Text:
    return Text.assemble(
        (f"Round {obs['round']}/{obs['rounds']}", "bold"),
        ("  (last turn)" if obs["last_turn"] else ""),
        f"   Magic Pool: {obs['magic_pool']}   turn: {seat_name(obs['turn'])} ({obs['phase']}",
        f", {obs['plays']} plays left)" if obs["phase"] == "play" else ")",
    )


def _paths_lines(obs: dict[str, Any]) -> list[Text]:
    """The Monster Paths, a tier a line: each Monster's cost, reward and Favor."""
    lines = [Text("Monster Paths (9c+1s: defeat for 9 Crystals and 1 Spell -> reward, Favor):")]
    for tier, path in enumerate(obs["paths"], start=1):
        monsters = "; ".join(
            f"{m['name']} {m['crystals']}c"
            + (f"+{m['spells']}s" if m["spells"] else "")
            + f" -> {', '.join(m['reward']) or 'nothing'}, {m['favor']} favor"
            for m in path
        )
        lines.append(Text(f"  tier {tier}: {monsters or '(none yet)'}"))
    return lines


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _seat_lines(obs: dict[str, Any], player: int) -> list[Text]:
    """Every Magi in a line: Favor, Crystals, Hand and Spell Book sizes, Planted, Monsters."""
    lines = []
    for p, seat in enumerate(obs["seats"]):
        who = "you" if p == player else seat_name(p)
        text = (
            f"{who} ({seat['magi']}): {seat['favor']} favor, {_n(seat['crystals'], 'crystal')}, "
            f"hand {seat['hand']}, book {seat['spell_book']}"
        )
        if seat["planted"]:
            text += f", planted {_counted(seat['planted'])}"
        if seat["monsters"]:
            text += f", {_n(len(seat['monsters']), 'monster')}"
        lines.append(Text(text))
    return lines


def _hand_lines(names: list[str]) -> list[Text]:
    """The viewer's Hand, a Spell a line with its element and its Top and Bottom Actions."""
    if not names:
        return [Text.assemble(("Your hand: ", "bold"), "-")]
    spells = content().spell_by_name
    lines = [Text("Your hand:", style="bold")]
    for name, k in Counter(names).items():
        spell = spells[name]
        top = ", ".join(e.text() for e in spell.top)
        bottom = ", ".join(e.text() for e in spell.bottom)
        text = f"  {name}{f' x{k}' if k > 1 else ''} ({spell.element}): top {top}"
        lines.append(Text(text + (f" | bottom {bottom}" if bottom else "")))
    return lines


def _top(obs: dict[str, Any]) -> str:
    """The discard pile's top Spell, in parentheses (nothing when the pile is empty)."""
    return f" (top: {obs['discard_pile'][-1]})" if obs["discard_pile"] else ""


def _table(
    obs: dict[str, Any],
    player: int,
    paths: Sequence[RenderableType],
    play: Sequence[RenderableType],
) -> Group:
    """A view of the table from top to bottom: the Round, the Monster ``paths``, every Magi,
    ``player``'s ability, the ``play`` area with the piles and the Hand, the decision waiting
    and, once over, the winners."""
    parts: list[RenderableType] = [
        _head(obs),
        *paths,
        *_seat_lines(obs, player),
        _ability(obs["seats"][player]["element"]),
        *play,
    ]
    if obs["choice"] is not None:
        parts.append(Text(_choice_text(obs["choice"], player), style="bold cyan"))
    if obs["phase"] == "over":
        parts.append(Text(f"Game over. Winners: {obs['winners']}", style="bold magenta"))
    return Group(*parts)


def turn(state: State, player: int) -> RenderableType:
    """What a decision needs: the Monster Paths, every Magi, your ability, the play area,
    your Hand with its actions, and the decision waiting."""
    obs = state.observation(player)
    play = Text(
        f"Play area: {_counted(obs['play_area'])}; discard pile {len(obs['discard_pile'])}"
        + _top(obs)
    )
    return _table(obs, player, _paths_lines(obs), [play, *_hand_lines(obs["hand"])])


def render(state: State, player: int) -> RenderableType:
    """The whole table as ``player`` sees it: Round, Paths, seats, own Hand, the decision."""
    obs = state.observation(player)
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
    play = [
        Text(f"Play area: {_counted(obs['play_area'])}"),
        Text(
            f"Discard pile: {len(obs['discard_pile'])} spells"
            + _top(obs)
            + f"; exhausted: {len(obs['exhausted'])}"
        ),
        _hand(obs["hand"]),
    ]
    return _table(obs, player, [paths], play)


def hand(state: State, player: int) -> RenderableType:
    """The viewer's Hand as a table."""
    return _hand(state.observation(player)["hand"])


def piles(state: State, player: int) -> RenderableType:
    """The public piles: the Magic Pool's discard pile and the exhausted Spells."""
    obs = state.observation(player)
    return Group(
        Text(f"Discard pile (top last): {_counted(obs['discard_pile'])}"),
        Text(f"Exhausted: {_counted(obs['exhausted'])}"),
    )


VIEWS = (
    View(
        "hand",
        "your Hand as a table of Spells and their actions",
        lambda s, p: _hand(s.observation(p)["hand"]),
    ),
    View("piles", "the Magic Pool's discard pile and the exhausted Spells", piles),
)


#: moves naming a Spell of the viewer's Hand or Planted area, or a Monster of the Paths,
#: whose texts the view shows
OWN_SPELL_VERBS = ("top", "bottom", "both", "plant", "discard", "uproot")


def menu_entry(state: State, player: int, action: Action) -> tuple[str, str, int]:
    """The terminal menu's place of a move: under its verb, the Spell or Monster it names;
    with the Spell's actions only where the view does not show them (a draft, a Search)."""
    text = state.explain(player, action)
    verb, _, rest = text.partition(" ")
    if not rest:
        return "", text, 0
    card = str(action).partition(" ")[2]
    label = card if verb in (*OWN_SPELL_VERBS, "defeat") and card else rest
    return verb, label, 0
