"""A game's first-turn guide for the web page: a few steps, each pointing at a part of the
table (a CSS selector of the game page: the board's parts, or the page's own such as the list of
moves ``#moves``) with a short text in the project's words: what the player looks at and what to
do now. Kept in ``guide.toml`` beside the board it points at (the package ``Game.web_view``),
validated on load:

    [[steps]]
    target = ".rb-tray"                 # where the step points
    title = "This round's dice"
    text = "Four dice are rolled for everyone ..."
    variants = ["solo"]                 # optional: only in these variants (default: all)
    players = [2]                       # optional: only at these player counts (default: all)

Every variant (and player count a step names) must keep at least two steps.
"""

from __future__ import annotations

from functools import cache

from pydantic import Field

from rulebook.core.data import DataError, Strict, data_file_exists, load
from rulebook.core.errors import SetupError
from rulebook.core.game import Setup
from rulebook.core.registry import get_game
from rulebook.core.state import Game

GUIDE_FILE = "guide.toml"
#: the fewest steps a guide may show (a single pointer is no tour)
MIN_STEPS = 2


class GuideStep(Strict):
    target: str = Field(min_length=1, max_length=200, pattern=r"^[^<>{}]+$")
    title: str = Field(min_length=1, max_length=80)
    text: str = Field(min_length=1, max_length=700)
    variants: tuple[str, ...] = ()
    players: tuple[int, ...] = ()

    def shown(self, setup: Setup) -> bool:
        """Whether the step belongs to the guide of ``setup``."""
        return (not self.variants or setup.variant in self.variants) and (
            not self.players or setup.players in self.players
        )


class GuideFile(Strict):
    steps: list[GuideStep] = Field(min_length=1)


def load_guide(game: Game) -> list[GuideStep]:
    """Every step of ``game``'s guide, checked against its variants and player counts
    (:class:`DataError` naming what is wrong); empty when the game has no guide."""
    package = game.web_view
    if package is None or not data_file_exists(package, GUIDE_FILE):
        return []
    steps = load(GuideFile, package, GUIDE_FILE).steps
    where = f"{package}/{GUIDE_FILE}"
    for i, step in enumerate(steps, 1):
        for name in step.variants:
            try:
                game.variant(name)
            except SetupError as exc:
                raise DataError(f"{where}: step {i}: {exc}") from None
        low = min(v.min_players for v in game.variants)
        high = max(v.max_players for v in game.variants)
        if any(not low <= n <= high for n in step.players):
            raise DataError(f"{where}: step {i}: players must be {low}-{high}")
    for variant in game.variants:
        counts = {n for s in steps for n in s.players} or {variant.min_players}
        for n in sorted(counts | {variant.min_players}):
            if not variant.min_players <= n <= variant.max_players:
                continue
            shown = [s for s in steps if s.shown(Setup(game.name, n, 0, variant.name))]
            if len(shown) < MIN_STEPS:
                raise DataError(
                    f"{where}: the {variant.name} variant with {n} players has "
                    f"{len(shown)} step(s); a guide needs {MIN_STEPS} or more"
                )
    return steps


@cache
def _steps(game_name: str) -> tuple[GuideStep, ...]:
    return tuple(load_guide(get_game(game_name)))


def guide(setup: Setup) -> list[GuideStep]:
    """The steps of the guide of ``setup``'s game for ``setup``, in order (read once)."""
    return [s for s in _steps(setup.game) if s.shown(setup)]
