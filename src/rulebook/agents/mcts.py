"""Information-set Monte Carlo tree search with determinization, for any game (sees only core).

One search per decision (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012):

* every iteration starts from ``state.determinize(me, rng)``: a copy in which what the
  searching seat cannot see (other hands, deck orders, future dice) is re-sampled, so the tree
  is over the seat's *information set*, not over one guessed deal;
* the tree is keyed by moves, not states: a child is an action, and since a move legal in one
  determinization may be illegal in another, selection counts how often each child was
  *available* (UCB1 with availability counts);
* each node stores the reward of the seat that chose its move (UCT per seat: every seat
  maximises its own reward), so opponents' turns and interrupts (another seat becoming current
  mid-turn) are searched like the searching seat's own;
* simultaneous phases (several ``current_players``): the searching seat's own moves are in the
  tree; other seats that act at the same time move by the rollout policy (they cannot see what
  the searching seat does, so the tree must not let them react to it);
* past the tree, the game's rollout policy (``Game.rollout``, default uniformly random) plays
  ``Game.rollout_moves`` more moves (default none: the evaluation judges the leaf), then the
  game's ``evaluate`` scores the position for every seat; a seat's reward is its margin over
  the best other seat (its own value in solo games);
* selection compares a node's children by their mean rewards scaled to [0, 1] between the
  worst and the best of them (min-max normalisation as in MuZero, Schrittwieser et al. 2020,
  but per node): the exploration constant then means the same in every game, whatever the
  scale of its scores. With one scale for the whole search, the spread of rewards across
  determinizations dwarfed the differences between moves, and the search explored almost
  uniformly (it lost to greedy in 3 of 5 games; see docs/history/lab-measurements.md,
  "Measured: bot strength").

The budget is a number of iterations (seeded and reproducible) or seconds per move.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from rulebook.agents.base import Agent
from rulebook.core import Action, IllegalAction, State
from rulebook.core.policy import random_move

#: iterations of the default ``mcts`` spec (decides in under 1 s per move on one core in every
#: game; see docs/performance.md, "Time per move")
DEFAULT_ITERATIONS = 1000
#: UCB1 exploration constant (children's mean rewards are scaled to [0, 1] per node)
DEFAULT_EXPLORATION = 0.5


class Node:
    """A node of the search tree: the move that led here and its statistics."""

    __slots__ = ("action", "available", "children", "reward", "seat", "visits")

    def __init__(self, action: Action | None, seat: int) -> None:
        self.action = action
        #: the seat that chose ``action`` (whose reward this node accumulates)
        self.seat = seat
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0


class MCTSAgent(Agent):
    """ISMCTS with determinization; budget by ``iterations`` or by ``seconds`` per move.

    ``cutoff`` overrides the game's ``rollout_moves`` (moves played past the tree); ``leaf``
    replaces :func:`leaf_rewards` (each seat's reward where an iteration stops: a learned
    value, :mod:`rulebook.agents.expert`).
    """

    name = "mcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = DEFAULT_ITERATIONS,
        seconds: float | None = None,
        cutoff: int | None = None,
        exploration: float = DEFAULT_EXPLORATION,
        leaf: Callable[[State], list[float]] | None = None,
    ) -> None:
        super().__init__(seed)
        if iterations is None and seconds is None:
            raise ValueError("mcts needs a budget: iterations or seconds")
        if iterations is not None and iterations < 1:
            raise ValueError(f"mcts iterations must be at least 1, not {iterations}")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"mcts seconds must be positive, not {seconds}")
        if cutoff is not None and cutoff < 0:
            raise ValueError(f"mcts cutoff must be at least 0, not {cutoff}")
        self.iterations = iterations
        self.seconds = seconds
        self.cutoff = cutoff
        self.exploration = exploration
        self.leaf = leaf
        #: iterations run by the last decision (for tests and profiling)
        self.last_iterations = 0
        #: the chosen move's mean reward in the last decision's search (0 without a search)
        self.last_value = 0.0

    def act(self, state: State, player: int) -> Action:
        actions = state.legal_actions(player)
        if not actions:
            raise IllegalAction(f"seat {player} has no legal move")
        if len(actions) == 1:
            self.last_iterations = 0
            self.last_value = 0.0
            return actions[0]
        root = Node(None, player)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self._iterate(root, state.determinize(player, self.rng), player)
            done += 1
        self.last_iterations = done
        legal = set(actions)
        best = max(
            (child for child in root.children.values() if child.action in legal),
            key=lambda c: (c.visits, c.reward / c.visits),
            default=None,
        )
        if best is None or best.action is None:
            self.last_value = 0.0
            return actions[0]
        self.last_value = best.reward / best.visits
        return best.action

    # -- one iteration -------------------------------------------------------------------------
    def _iterate(self, root: Node, state: State, me: int) -> None:
        rng = self.rng
        game = state.game
        rollout = game.rollout or random_move
        path = [root]
        node = root
        expanded = False
        while not state.is_terminal():
            mover = self._tree_mover(state, me)
            if mover is None:  # other seats of a simultaneous phase: not in the tree
                seat = state.current_players()[0]
                state.apply_legal(seat, rollout(state, seat, rng))
                continue
            if expanded:
                break
            legal = state.legal_actions(mover)
            if not legal:  # a seat to act without a move: the game is stuck, score it as is
                break
            children = node.children
            known: list[Node] = []
            untried: list[Action] = []
            for a in legal:
                found = children.get(a)
                if found is None:
                    untried.append(a)
                else:
                    found.available += 1
                    known.append(found)
            if untried:
                action = rng.choice(untried)
                child = Node(action, mover)
                child.available = 1
                children[action] = child
                expanded = True
            else:
                child = self._select(known)
            state.apply_legal(mover, child.action)  # type: ignore[arg-type]
            path.append(child)
            node = child
        cutoff = game.rollout_moves if self.cutoff is None else self.cutoff
        for _ in range(cutoff):
            if state.is_terminal():
                break
            current = state.current_players()
            seat = me if me in current else current[0]
            state.apply_legal(seat, rollout(state, seat, rng))
        rewards = leaf_rewards(state) if self.leaf is None else self.leaf(state)
        for n in path:
            n.visits += 1
            n.reward += rewards[n.seat]

    @staticmethod
    def _tree_mover(state: State, me: int) -> int | None:
        """The seat whose move is a tree node here, or None for a simultaneous move by others."""
        current = state.current_players()
        if me in current:
            return me
        if len(current) == 1:
            return current[0]
        return None

    def _select(self, children: list[Node]) -> Node:
        """UCB1 with availability counts over the children legal in this determinization
        (their availability already counts this visit); mean rewards scaled to [0, 1] between
        the worst and the best child.

        Two passes without lists, calling ``math.log`` and ``math.sqrt`` by name (compiled,
        they are the C library's, the very functions ``math`` calls)."""
        first = children[0]
        low = high = first.reward / first.visits
        for child in children:
            mean = child.reward / child.visits
            if mean < low:
                low = mean
            elif mean > high:
                high = mean
        span = high - low if high > low else 1.0
        c = self.exploration
        best = first
        best_value = -math.inf
        for child in children:
            mean = child.reward / child.visits
            value = (mean - low) / span + c * math.sqrt(math.log(child.available) / child.visits)
            if value > best_value:
                best, best_value = child, value
        return best


def leaf_rewards(state: State) -> list[float]:
    """Each seat's reward for a position the search stops at: its evaluation's margin over the
    best other seat (solo: the value itself); without an evaluation function, the share of the
    win."""
    evaluate = state.game.evaluate
    n = state.num_players
    values = state.returns() if evaluate is None else [evaluate(state, p) for p in range(n)]
    if n == 1:
        return values
    # the best other seat's value: the best value, or the second best for the best seat (the
    # first seat with the best value counts as the best seat)
    top = 0
    best = values[0]
    for p in range(1, n):
        if values[p] > best:
            top, best = p, values[p]
    second = -math.inf
    for p in range(n):
        if p != top and values[p] > second:
            second = values[p]
    return [v - (second if p == top else best) for p, v in enumerate(values)]
