"""Playing whole games between agents, and many games for statistics (sees only ``core``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulebook.agents import Agent, agent_seed, make_agent
from rulebook.agents.protocol import OutsideAgent, ask_together
from rulebook.core import State, new_game

#: stop a game that runs longer than this many moves (a safety net against rule bugs)
MAX_MOVES = 1_000_000


def play(
    state: State,
    agents: Sequence[Agent],
    max_moves: int = MAX_MOVES,
    *,
    parallel: bool | None = None,
) -> State:
    """Let ``agents[p]`` move for seat ``p`` until the game ends; returns the final state.

    In simultaneous phases the lowest seat that may act moves first; the games' simultaneous
    phases are independent between seats, so the order changes nothing but the log. With
    ``parallel``, the seats of a simultaneous phase are asked at once instead
    (:func:`rulebook.agents.protocol.ask_together`: agents outside the process, language
    models above all, then wait for one another no longer), and their moves made in seat
    order; by default (``None``) only when two or more of those seats are played from outside
    the process (bots keep the order of seeded games). Only a seat the game waits for is
    asked. When the game ends (or stops on an error), each agent is told with
    :meth:`Agent.finish` (an outside agent's program is stopped then).
    """
    moves = 0
    try:
        while not state.is_terminal():
            players = list(state.current_players())
            together = parallel
            if together is None:
                together = sum(isinstance(agents[p], OutsideAgent) for p in players) > 1
            if together and len(players) > 1:
                asked = ask_together([(agents[p], state, p) for p in players])
                chosen = list(zip(players, asked, strict=True))
            else:
                chosen = [(players[0], agents[players[0]].act(state, players[0]))]
            for player, action in chosen:
                if player in state.current_players():  # (a phase's seats stay to act)
                    state.apply(player, action)
                    moves += 1
            if moves > max_moves:
                raise RuntimeError(f"game did not end after {max_moves} moves")
    finally:
        finish(state, agents)
    return state


def finish(state: State, agents: Sequence[Agent]) -> None:
    """Tell each agent (once, if it plays several seats) that the game is over."""
    for agent in {id(agent): agent for agent in agents}.values():
        agent.finish(state)


@dataclass
class GameResult:
    """One finished game, as stored by the simulator."""

    seed: int
    agents: list[str]
    scores: list[int]
    winners: list[int]
    moves: int
    breakdown: list[dict[str, int]] = field(default_factory=list)
    #: what each seat's agent counted (:attr:`Agent.tally`: an outside agent's retries,
    #: timeouts and fallbacks; empty for the bots)
    tallies: list[dict[str, float]] = field(default_factory=list)


def play_one(
    game: str,
    players: int,
    agents: Sequence[str],
    seed: int,
    variant: str | None = None,
    options: Mapping[str, str] | None = None,
) -> GameResult:
    """Play one seeded game between agents named by ``agents`` (one per seat)."""
    state = new_game(game, players=players, seed=seed, variant=variant, options=options)
    seats = [make_agent(spec, agent_seed(seed, p)) for p, spec in enumerate(agents)]
    play(state, seats)
    return GameResult(
        seed=seed,
        agents=list(agents),
        scores=state.scores(),
        winners=state.winners(),
        moves=len(state.history),
        breakdown=[state.score_breakdown(p) for p in range(players)],
        tallies=[agent.tally for agent in seats],
    )


def run(
    game: str,
    players: int,
    agents: Sequence[str],
    games: int,
    seed: int = 0,
    variant: str | None = None,
    options: Mapping[str, str] | None = None,
    progress: Callable[[GameResult], Any] | None = None,
) -> list[GameResult]:
    """Play ``games`` games with seeds ``seed .. seed + games - 1``; ``progress`` sees each."""
    results = []
    for i in range(games):
        result = play_one(game, players, agents, seed + i, variant, options)
        results.append(result)
        if progress is not None:
            progress(result)
    return results
