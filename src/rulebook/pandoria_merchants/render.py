"""The terminal view of a Pandoria Merchants table, drawn from one seat's observation only."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from rulebook.core import State

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


def realm_text(obs: dict[str, Any]) -> Table:
    """The Realm sheet's cards, a row a column: Spell / Building, then the card's Gold price,
    the Spell's Crystals and the Building's Wood; X marks a blocked column."""
    table = Table(title="Realm sheet (g gold price, c spell crystals, w building wood)")
    for name in ("column", "card 1", "card 2", "card 3"):
        table.add_column(name)
    blocked = set(obs["blocked_columns"])
    for col in sorted({c["column"] for c in obs["realm"]}):
        cells = [
            f"{c['card']}{' ' + str(c['power']) if c['power'] else ''}\n"
            f"{c['gold']}g {c['crystals']}c {c['wood']}w"
            for c in obs["realm"]
            if c["column"] == col
        ]
        label = f"{col}{' start' if col == 1 else ''}{' X' if col in blocked else ''}"
        table.add_row(label, *cells)
    return table


def render(state: State, player: int) -> RenderableType:
    """The table as ``player`` sees it: the map, the dice, every Realm sheet (or Guild)."""
    obs = state.observation(player)
    head = Text.assemble(
        (f"Round {obs['round']}", "bold"),
        f"   seat {obs['turn']} to act ({obs['phase']})",
        "   dice: ",
        (" + ".join(obs["dice"]), "bold cyan"),
    )
    if "end_needed" in obs:
        head.append(
            f"   pre-printed spaces enclosed: {obs['pre_printed_enclosed']}/{obs['end_needed']}"
        )
    if obs["end_triggered"]:
        head.append("   LAST ROUND", style="bold magenta")
    parts: list[RenderableType] = [head, map_text(obs), Text(LEGEND, style="dim")]
    seats = Table(title="Realms", header_style="bold")
    for name in ("seat", "VP", "resources", "cards / spells", "extra"):
        seats.add_column(name)
    for p, seat in enumerate(obs["seats"]):
        label = Text(f"{p}{' (you)' if p == player else ''}", style=SEAT_STYLE[p % 4])
        if obs["variant"] == "family":
            seats.add_row(
                label,
                str(seat["score"]),
                f"{seat['guild']} Guild ({seat['guild_resource']})",
                ", ".join(seat["spells"]) or "-",
                f"used {seat['used_spells']}",
            )
            continue
        tracks = " ".join(f"{k} {v}" for k, v in seat["tracks"].items())
        cards = "; ".join(
            f"{state}: {', '.join(ids)}"
            for state, ids in seat["cards"].items()
            if ids and state in ("owned", "built", "monument")
        )
        extra = f"artifacts {seat['artifacts']}"
        if seat["relics"] or seat["monuments"]:
            extra += f"; relics {seat['relics']}; monuments {seat['monuments']}"
        seats.add_row(label, str(seat["score"]), tracks, cards or "-", extra)
    parts.append(seats)
    if obs["variant"] == "family":
        rooms = "  ".join(
            f"{r['room']}{'*' if r['filling'] else ''}: "
            + ", ".join(s if i >= r["taken"] else "-" for i, s in enumerate(r["spells"]))
            for r in obs["archive"]
        )
        parts.append(Text(f"Spell Archive (* the room being filled)  {rooms}"))
    else:
        parts.append(realm_text(obs))
        parts.append(
            Text(
                f"Blocked columns: {obs['blocked_columns'] or '-'}   Relics left: "
                f"{obs['relics_left']}   Monuments left: {obs['monuments_left']}"
            )
        )
    if "solo" in obs:
        s = obs["solo"]
        parts.append(
            Text(
                f"Territory {s['territory']} (points here: {s['territory_points_now']})  "
                f"your scores {s['your_territory_scores']}  Trolls {s['troll_scores']} "
                f"(total {s['trolls_total']})  table {s['table']}  Troll columns "
                f"{s['troll_columns']}  claims {s['troll_claims']}\n"
                f"Bridges: {' '.join(s['bridges'])}"
            )
        )
    if obs["phase"] == "over":
        if "solo" in obs:
            final = obs["solo"]["final"]
            parts.append(Text(f"Game over. {obs['rating']}: {final}.", style="bold magenta"))
        else:
            parts.append(Text(f"Game over. Winners: {obs['winners']}", style="bold magenta"))
    return Group(*parts)
