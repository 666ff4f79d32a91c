"""Which Spells each Archmagi Magi plays: its own element's Starting and Book Spells, the other
elements' Spells (their Top Actions) and the Commons, per game.

Usage::

    python benchmarks/archmagi_plays.py [--games 40] [--players 4] [--agent greedy] [--seed 0]

One seat a game, rotating with the seed (``seed % players``), plays ``--agent`` and the others
greedy; counted are that seat's Plays of a Spell (``top``, ``bottom``, ``both``, ``plant``) and
the Spells its symbols Plant. A Magi's Spell Book reaches it only through the Magic Pool (a
Draft puts its top Spells in the Pool's discard pile; SYMBOLS GUIDE), so this shows how much of
a Magi's play its own authored Spells are (docs/history/archmagi-magi-balance.md, "What the Magi
play"); docs/balance-lab.md gives the command.
"""

from __future__ import annotations

import argparse
from collections import Counter

from rulebook.agents import agent_seed, make_agent
from rulebook.archmagi.rules import ArchmagiState
from rulebook.core import get_game, new_game

VERBS = ("top", "bottom", "both", "plant")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--agent", default="greedy")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    faction = get_game("archmagi").faction
    assert faction is not None
    played: dict[str, Counter[str]] = {}
    games: Counter[str] = Counter()
    for g in range(args.games):
        seed = args.seed + g
        state = new_game("archmagi", players=args.players, seed=seed)
        assert isinstance(state, ArchmagiState)
        studied = seed % args.players
        agents = [
            make_agent(args.agent if p == studied else "greedy", agent_seed(seed, p))
            for p in range(args.players)
        ]
        magi = faction(state, studied)
        element = state.magi[studied]
        cards = {card.name: card for card in state.content.cards}
        games[magi] += 1
        count = played.setdefault(magi, Counter())
        while not state.is_terminal():
            p = state.current_players()[0]
            move = agents[p].act(state, p)
            verb, _, name = str(move).partition(" ")
            if p == studied and verb in VERBS and name in cards:
                card = cards[name]
                if card.element == element:
                    count[f"own {card.set} ({verb})"] += 1
                elif card.element == "common":
                    count["Commons"] += 1
                else:
                    count["other elements' Tops"] += 1
            state.apply(p, move)
    print(
        f"archmagi, {args.players} players, one {args.agent} seat against greedy, "
        f"{args.games} games from seed {args.seed}: Spells played a game"
    )
    for magi in sorted(played):
        n = games[magi]
        row = ", ".join(f"{k} {v / n:.1f}" for k, v in sorted(played[magi].items()))
        print(f"  {magi:15} ({n:3} games)  {row}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
