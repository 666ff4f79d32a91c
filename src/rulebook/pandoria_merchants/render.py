"""The terminal view of a Pandoria Merchants table, drawn from one seat's observation only."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from rulebook.core import Action, State, View
from rulebook.core.words import seat as seat_name

STYLE = {
    "W": "green",
    "C": "magenta",
    "K": "yellow",
    "G": "bold yellow",
    "T": "bold white",
    "~": "blue",
    "S": "bold blue",
    "#": "dim",
    ".": "dim",
}
#: card states shown as counts in the compact view (the cards are used up)
SPENT = ("cast", "crossed")
#: the map's letter of each tracked Resource
LETTERS = {"wood": "W", "crystal": "C", "craft": "K", "gold": "G"}
SEAT_STYLE = ("bold red", "bold cyan", "bold green", "bold magenta")
LEGEND = (
    "W wood  C crystal  K craft  G gold  T city   0-3 a seat's Worker   # Swamp   ~ lake\n"
    "S Ship space (S1: seat 1's Ship)   .3 empty hex of Territory 3 (solo)\n"
    "after a symbol: * pre-printed  @ Starting space  x enclosed and scored  a Artifact\n"
    "Hexes are named column + row (C7); even rows sit half a hex to the right."
)


def map_text(obs: dict[str, Any]) -> Text:
    """The hex map with offset rows: each hex is 4 characters, even rows shifted by 2."""
    m = obs["map"]
    territories = m["territories"]
    out = Text()
    out.append("     " + "".join(f"{c:<4}" for c in m["columns"]) + "\n", style="bold")
    for r, row in enumerate(m["rows"]):
        out.append(f"{r + 1:>3}  ", style="bold")
        if r % 2 == 1:
            out.append("  ")
        for col in range(len(row) // 2):
            sym, mark = row[2 * col], row[2 * col + 1]
            if sym.isdigit():
                style = SEAT_STYLE[int(sym) % 4]
            elif sym == "S" and mark.isdigit():
                style = SEAT_STYLE[int(mark) % 4]
            else:
                style = STYLE.get(sym, "")
            if mark == "x":
                style = "dim"
            cell = sym + mark
            if territories and sym == ".":
                cell = "." + territories[r][col]
            out.append(f"{cell:<4}", style=style)
        out.append("\n")
    return out


SHORT_LEGEND = (
    "W wood C crystal K craft G gold T city; 0-3 a seat's Worker; ~ lake, # Swamp, S Ship "
    "space (S1: seat 1's Ship); after a symbol: * pre-printed, @ Starting space, x scored, "
    "a Artifact"
)
#: the phases whose decisions need the map, and those that need the Realm sheet
MAP_PHASES = ("wild", "draw", "action", "spell", "bridge", "claim", "over")
REALM_PHASES = ("setup", "buy", "trolls-column")
RELIC_PHASES = ("action", "buy", "trolls-element")


def _numbers(values: list[int]) -> str:
    return ", ".join(str(v) for v in values) or "none"


def relics_text(obs: dict[str, Any]) -> str:
    """The Relics and Monuments still to be had, in words."""
    relics = "; ".join(
        f"for {kind.split('-')[1]} Artifacts {_numbers(values)}"
        for kind, values in obs["relics_left"].items()
    )
    return f"Relics left: {relics}. Monuments left: {_numbers(obs['monuments_left'])}."


def _progress(obs: dict[str, Any], line: Text) -> Text:
    """``line`` with how near the end is: pre-printed spaces scored, the last round."""
    if "end_needed" in obs:
        line.append(
            f"   pre-printed spaces enclosed: {obs['pre_printed_enclosed']}/{obs['end_needed']}"
        )
    if obs["end_triggered"]:
        line.append("   LAST ROUND", style="bold magenta")
    return line


def _when(obs: dict[str, Any]) -> str:
    """``Round 4``; solo, which has no rounds: ``Territory 3 of 8``."""
    return obs["solo"]["progress"] if "solo" in obs else f"Round {obs['round']}"


def _rage(obs: dict[str, Any], player: int) -> list[Text]:
    """The Worker the last Rage made count more (this turn, or the last one), if any."""
    rage = obs["rage"]
    if rage is None:
        return []
    whose = "your" if rage["seat"] == player else f"{seat_name(rage['seat'])}'s"
    if rage["this_turn"]:
        said = f"{whose} Worker on {rage['hex']} counts as {rage['counts_as']} Workers this turn"
    else:
        said = f"last turn {whose} Worker on {rage['hex']} counted as {rage['counts_as']} Workers"
    return [Text(f"Rage: {said}.")]


def _head(obs: dict[str, Any]) -> Text:
    return _progress(
        obs,
        Text.assemble(
            (_when(obs), "bold"),
            f"   {seat_name(obs['turn'])} to act ({obs['phase']})",
            "   dice: ",
            (" + ".join(obs["dice"]), "bold cyan"),
        ),
    )


def _dice(obs: dict[str, Any]) -> Text:
    """The dice and how near the end is, right above the moves."""
    return _progress(obs, Text.assemble(("Dice: ", "bold"), (" + ".join(obs["dice"]), "bold cyan")))


def _seat_line(obs: dict[str, Any], p: int, player: int) -> Text:
    """One seat in a line: VP, tracks (W1 C0 K1 G0, as the map's letters; or the Guild),
    cards, Artifacts, Relics, Monuments."""
    seat = obs["seats"][p]
    who = Text("you" if p == player else seat_name(p), style=SEAT_STYLE[p % 4])
    if obs["variant"] == "family":
        spells = ", ".join(seat["spells"]) or "none"
        rest = (
            f": {seat['score']} VP; {seat['guild']} Guild ({seat['guild_resource']}); "
            f"Spells {spells} ({seat['used_spells']} used)"
        )
        return Text.assemble(who, rest)
    tracks = " ".join(f"{LETTERS[k]}{v}" for k, v in seat["tracks"].items())
    cards = "; ".join(  # spent cards (cast, crossed) counted, the rest named
        f"{state} {len(ids) if state in SPENT else ', '.join(ids)}"
        for state, ids in seat["cards"].items()
        if ids
    )
    rest = f": {seat['score']} VP, {tracks}; {cards or 'no cards'}; artifacts {seat['artifacts']}"
    if seat["relics"]:
        rest += f"; relics {_numbers(seat['relics'])}"
    if seat["monuments"]:
        rest += f"; monuments {_numbers(seat['monuments'])}"
    return Text.assemble(who, rest)


def realm_lines(obs: dict[str, Any]) -> list[Text]:
    """The Realm sheet a column a line: each card's Spell/Building (strength) and costs."""
    blocked = set(obs["blocked_columns"])
    lines = [
        Text(
            "Realm sheet, a column a line (1: the starting column; X: blocked); 2g1c3w: 2 Gold "
            "to buy, 1 Crystal for the Spell, 3 Wood for the Building"
        )
    ]
    for col in sorted({c["column"] for c in obs["realm"]}):
        cards = [
            f"{c['card']}{' ' + str(c['power']) if c['power'] else ''} "
            f"{c['gold']}g{c['crystals']}c{c['wood']}w"
            for c in obs["realm"]
            if c["column"] == col
        ]
        label = f"{col}{'X' if col in blocked else ''}"
        lines.append(Text(f"{label:>2} " + "  ".join(cards)))
    return lines


def archive_text(obs: dict[str, Any]) -> Text:
    rooms = "  ".join(
        f"{r['room']}{'*' if r['filling'] else ''}: "
        + ", ".join(s if i >= r["taken"] else "-" for i, s in enumerate(r["spells"]))
        for r in obs["archive"]
    )
    return Text(f"Spell Archive (* the room being filled; - taken): {rooms}")


def solo_text(obs: dict[str, Any]) -> Text:
    s = obs["solo"]
    return Text(
        f"Solo, level {s['level']}: {s['progress']}, the map's Territory {s['territory']} "
        f"(your points here: "
        f"{s['territory_points_now']}); your Territory scores "
        f"{_numbers(s['your_territory_scores'])}; the Trolls {_numbers(s['troll_scores'])} "
        f"(total {s['trolls_total']}); Troll table "
        f"{_numbers(s['table'])}; Troll columns {_numbers(s['troll_columns'])}; Troll claims "
        f"{', '.join(str(c) for c in s['troll_claims']) or 'none'}. Bridges: "
        f"{' '.join(s['bridges'])}"
    )


def turn(state: State, player: int) -> RenderableType:
    """What a decision needs: the map when it is about hexes, every seat, the Realm sheet,
    Relics and Monuments (or the Spell Archive) when it is about cards, the dice last."""
    obs = state.observation(player)
    phase = obs["phase"]
    parts: list[RenderableType] = [Text.assemble((_when(obs), "bold"), f"   your turn: {phase}")]
    if phase in MAP_PHASES:
        legend = SHORT_LEGEND + ("; .3 Territory 3" if "solo" in obs else "")
        parts += [map_text(obs), Text(legend, style="dim")]
    parts += _rage(obs, player)
    parts += [_seat_line(obs, p, player) for p in range(len(obs["seats"]))]
    if obs["variant"] == "family":
        if phase == "claim":
            parts.append(archive_text(obs))
    else:
        if phase in REALM_PHASES:
            parts += realm_lines(obs)
        if phase in RELIC_PHASES:
            parts.append(Text(relics_text(obs)))
    if "solo" in obs:
        parts.append(solo_text(obs))
    parts.append(_dice(obs))
    return Group(*parts, *_footer(obs))


def board(state: State, player: int) -> RenderableType:
    """The map with its full legend."""
    obs = state.observation(player)
    return Group(_head(obs), map_text(obs), *_rage(obs, player), Text(LEGEND, style="dim"))


def realm(state: State, player: int) -> RenderableType:
    """The Realm sheet (or, in the family version, the Spell Archive), Relics, Monuments."""
    obs = state.observation(player)
    if obs["variant"] == "family":
        return archive_text(obs)
    return Group(*realm_lines(obs), Text(relics_text(obs)))


def _footer(obs: dict[str, Any]) -> list[Text]:
    if obs["phase"] != "over":
        return []
    if "solo" in obs:
        final = obs["solo"]["final"]
        return [
            Text(f"Game over. {obs['rating']}: {final}.", style="bold magenta"),
            Text(obs["solo"]["trolls_explained"]),
        ]
    return [Text(f"Game over. Winners: {obs['winners']}", style="bold magenta")]


def render(state: State, player: int) -> RenderableType:
    """The whole table as ``player`` sees it: the map, every seat, the Realm sheet."""
    obs = state.observation(player)
    parts: list[RenderableType] = [board(state, player)]
    parts += [_seat_line(obs, p, player) for p in range(len(obs["seats"]))]
    parts.append(realm(state, player))
    if "solo" in obs:
        parts.append(solo_text(obs))
    return Group(*parts, *_footer(obs))


VIEWS = (
    View("map", "the map with its full legend", board),
    View("realm", "the Realm sheet (family: the Spell Archive), Relics and Monuments", realm),
)


def menu_entry(state: State, player: int, action: Action) -> tuple[str, str, int]:
    """The terminal menu's place of a move: under its verb (``wood``, ``worker``, ``buy``...),
    labelled with its hex or card and the cost, as the explanation gives it."""
    text = state.explain(player, action)
    verb, _, rest = text.partition(" ")
    if not rest:
        return "", text, 0
    arg, _, detail = rest.partition(" (")
    cost = detail.rstrip(")").partition(";")[0]
    return verb, f"{arg} ({cost})" if cost else arg, 0
