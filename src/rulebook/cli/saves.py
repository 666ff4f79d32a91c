"""Save files in terminal play: never overwritten unasked, and never a move lost unsaid.

A save file may be replaced without ``--overwrite`` only when it holds this very game at an
earlier point (same setup, its moves the first of ours: resuming it, or saving again) or a
finished game of the same game (a record of a past game of this kind is the usual thing to
play over). Anything else - an unfinished game, another game's save, a file that is not a save
- is refused with what it holds, so nothing is lost unasked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import rulebook
from rulebook.cli.common import UsageError
from rulebook.core import RulebookError, State


def _moves(count: int) -> str:
    return f"{count} move{'' if count == 1 else 's'}"


def replacing(state: State, path: Path) -> str | None:
    """Why ``path`` may not be replaced by a save of ``state`` (None when it may: missing,
    this game at an earlier point, or a finished game of the same game)."""
    if not path.exists():
        return None
    if path.is_dir():
        return f"{path} is a folder"
    try:
        saved = rulebook.load(path)
    except RulebookError:
        return f"{path} exists and is not a save file"
    same_setup = saved.setup == state.setup
    if same_setup and [str(a) for _, a in saved.history] == [
        str(a) for _, a in state.history[: len(saved.history)]
    ]:
        return None
    if saved.is_terminal() and saved.setup.game == state.setup.game:
        return None
    status = "a finished" if saved.is_terminal() else "an unfinished"
    return (
        f"{path} holds {status} game of {saved.game.title} "
        f"({_moves(len(saved.history))}, seed {saved.setup.seed})"
    )


@dataclass
class Saves:
    """Where the game is saved after every move (if anywhere), and how far each save went."""

    state: State
    seats: Sequence[str]
    #: the file saved after every move (``--save``, or the file resumed)
    path: Path | None
    #: the last file written and how many moves it holds (None before any save)
    last: tuple[Path, int] | None = None

    def write(self, path: Path) -> None:
        """Save the game with its seats to ``path`` (OSError on failure)."""
        rulebook.save(self.state, path, seats=self.seats)
        self.last = (path, len(self.state.history))

    def first(self) -> None:
        """Save before the first move, so that an unwritable ``--save`` fails before play."""
        if self.path is None:
            return
        try:
            self.write(self.path)
        except OSError as exc:
            raise UsageError(f"cannot save to {self.path}: {exc.strerror}") from None

    def unsaved(self) -> str:
        """What a stop leaves unsaved, in one sentence."""
        moves = len(self.state.history)
        if self.last is None:
            if moves == 0:
                return "No move was made."
            which = "The move is" if moves == 1 else f"None of the {moves} moves is"
            return f"{which} not saved (no --save FILE was given)."
        path, saved = self.last
        if saved >= moves:
            which = "The move is" if moves == 1 else f"All {moves} moves are"
            return f"{which} saved in {path}." if moves else f"Saved in {path}."
        first = saved + 1
        which = f"Move {first} is" if first == moves else f"Moves {first}-{moves} are"
        return f"{which} not saved (the last save, {path}, holds {_moves(saved)})."


def check_target(state: State, path: Path, overwrite: bool) -> None:
    """Refuse (:class:`UsageError`) to replace ``path`` unless allowed or ``overwrite``."""
    why = None if overwrite else replacing(state, path)
    if why is not None:
        raise UsageError(f"{why}; not overwritten (add --overwrite to replace it)")
