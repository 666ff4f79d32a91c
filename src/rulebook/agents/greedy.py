"""One-step lookahead on the game's own evaluation function (``Game.evaluate``)."""

from __future__ import annotations

from rulebook.agents.base import Agent
from rulebook.core import Action, IllegalAction, State


class GreedyAgent(Agent):
    """Tries every legal move on a clone and keeps the one the game's evaluation likes best
    (ties broken at random with the agent's seed)."""

    name = "greedy"

    def act(self, state: State, player: int) -> Action:
        actions = state.legal_actions(player)
        if not actions:
            raise IllegalAction(f"seat {player} has no legal move")
        evaluate = state.game.evaluate
        if evaluate is None:
            raise TypeError(f"{state.game.title} has no evaluation function for greedy play")
        if len(actions) == 1:
            return actions[0]
        best: list[Action] = []
        best_value = float("-inf")
        for action in actions:
            after = state.clone()
            after.apply(player, action)
            value = evaluate(after, player)
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif value >= best_value - 1e-9:
                best.append(action)
        return best[0] if len(best) == 1 else self.rng.choice(best)
