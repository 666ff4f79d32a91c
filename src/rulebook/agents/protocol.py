"""The move protocol: how a seat outside this process (a program, a remote agent, a language
model) is asked for its moves, and how its answers are read (docs/protocol.md is the manual).

The table sends a seat JSON messages: ``start`` when its game begins, ``move`` each time it
must act (its observation, the table as plain text, the legal moves or their grammar, the
time it has), ``error`` when an answer was no legal move (one line: why, and what a valid
move looks like), ``end`` with the results. The seat answers each ``move`` with one line: the
move. :func:`read_move` reads that line tolerantly (the move's text, its number, JSON, any
case and spacing, one move quoted in prose). :class:`OutsideAgent` runs the exchange with the
table's :class:`Policy`: bounded retries, a time limit, then a random move or a forfeit, each
counted in the agent's :attr:`~OutsideAgent.tally` and :attr:`~OutsideAgent.incidents`.

Everything a message holds comes from the seat's own view (:meth:`State.observation`, the
game's render of it, the seat's legal moves): two states that differ only in what the seat
cannot see give it the same bytes (tests/test_protocol_leaks.py).
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import math
import re
import time
from abc import abstractmethod
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, replace
from typing import Any

from rulebook.agents.base import Agent
from rulebook.core import Action, IllegalAction, RulebookError, Setup, State
from rulebook.core.policy import random_move

#: the protocol's version, sent in every message as ``"protocol": 1``
VERSION = 1
#: the width of the plain-text view of the table, in characters
TEXT_WIDTH = 100
#: the longest part of a bad answer quoted back in an error line
QUOTED = 60
#: what grammar a game's refusal of an unknown text gives after these words
_LOOKS_LIKE = "moves look like "
#: the fallbacks a :class:`Policy` may name
FALLBACKS = ("random", "forfeit")

log = logging.getLogger(__name__)


class BadAnswer(RulebookError):
    """An answer that is not a legal move; its message is one line saying why and what a
    valid move looks like (sent to the agent as it is)."""


class Forfeit(RulebookError):
    """A seat whose agent gave no legal move within the table's :class:`Policy`, which
    forfeits: the game loop decides what a forfeit does to the game (the seat's ``seat`` and
    the ``reason`` are kept)."""

    def __init__(self, seat: int, reason: str) -> None:
        super().__init__(f"seat {seat} forfeits: {reason}")
        self.seat = seat
        self.reason = reason


class AgentGone(RulebookError, ConnectionError):
    """The agent cannot be reached any more (its program exited, its connection closed)."""


# -- what a seat is sent ---------------------------------------------------------------------


def text_view(state: State, player: int) -> str:
    """The table as ``player`` sees it, in plain text: the game's ``render`` (the terminal's
    view, drawn from the seat's observation only) at :data:`TEXT_WIDTH` characters without
    colours or styles; the observation as indented JSON for a game without one."""
    render = state.game.render
    if render is None:
        return json.dumps(state.observation(player), indent=2, sort_keys=True)
    from rich.console import Console  # the terminal's library, loaded only when a view is made
    from rich.text import Text

    view = render(state, player)
    if isinstance(view, str):
        view = Text(view)
    console = Console(
        file=io.StringIO(),
        width=TEXT_WIDTH,
        record=True,
        color_system=None,
        force_terminal=False,
        force_jupyter=False,
        force_interactive=False,
        highlight=False,
        emoji=False,
        markup=True,
        legacy_windows=False,
        soft_wrap=False,
    )
    console.print(view)
    lines = console.export_text(styles=False).splitlines()
    return "\n".join(line.rstrip() for line in lines).strip("\n")


def grammar(state: State, player: int) -> str:
    """How moves are written in this game, with examples, without listing the legal ones:
    the game's own words for what its moves look like."""
    try:
        state.parse_action(player, "")
    except IllegalAction as refused:
        _, found, looks = str(refused).partition(_LOOKS_LIKE)
        if found:
            return f"moves look like {looks}"
    return "a move is written as the rules' log writes it"


def move_request(
    state: State, player: int, *, moves: bool = True, deadline: float | None = None
) -> dict[str, Any]:
    """The message asking ``player`` for a move: the seat's observation, the table as text,
    the legal moves in :meth:`State.legal_actions` order (or, with ``moves=False``, their
    :func:`grammar`), and the time it has to answer (``deadline`` seconds; ``None`` for no
    limit)."""
    message: dict[str, Any] = {
        "type": "move",
        "protocol": VERSION,
        "game": state.game.name,
        "variant": state.setup.variant,
        "players": state.num_players,
        "seat": player,
        "observation": state.observation(player),
        "text": text_view(state, player),
    }
    if moves:
        message["moves"] = [str(action) for action in state.legal_actions(player)]
    else:
        message["grammar"] = grammar(state, player)
    message["deadline_ms"] = None if deadline is None else max(0, round(deadline * 1000))
    return message


def start_message(setup: Setup, player: int, seed: int) -> dict[str, Any]:
    """The message telling a seat its game begins: the game, its variant and options, the
    seats, its own seat and a seed for its own random choices (:func:`agent_seed_of`, not
    the game's seed, which would tell the deal)."""
    return {
        "type": "start",
        "protocol": VERSION,
        "game": setup.game,
        "variant": setup.variant,
        "options": dict(setup.options),
        "players": setup.players,
        "seat": player,
        "seed": seed,
    }


def end_message(state: State, player: int) -> dict[str, Any]:
    """The message telling a seat its game is over: whether it was played to its end
    (``over``; false when it was stopped), and then the scores and the winners (seats from
    0), public once the game ends (``null`` for a stopped game: scores mid-game may count
    what the seat cannot see), and the number of moves made."""
    over = state.is_terminal()
    return {
        "type": "end",
        "protocol": VERSION,
        "game": state.game.name,
        "seat": player,
        "over": over,
        "scores": state.scores() if over else None,
        "winners": state.winners() if over else None,
        "moves": len(state.history),
    }


def error_message(reason: str) -> dict[str, Any]:
    """The message telling a seat its last answer was no legal move, and why."""
    return {"type": "error", "protocol": VERSION, "reason": reason}


def agent_seed_of(seed: int) -> int:
    """The seed sent to an outside agent for its own random choices: derived from its seed
    (so runs repeat) by a hash, so that it does not show the game's seed."""
    digest = hashlib.sha256(f"rulebook-agent/{seed}".encode()).digest()
    return int.from_bytes(digest[:4], "big") >> 1


# -- reading an answer -----------------------------------------------------------------------


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


#: a bare move number: ``3``, ``#3``, ``3.``, ``(3)``
_NUMBER = re.compile(r"^[#(]?\s*(\d+)\s*[.)]?$")
#: text quoted in prose: `...`, "...", '...', **...**
_QUOTED = re.compile(r"`([^`\n]+)`|\"([^\"\n]+)\"|\*\*([^*\n]+)\*\*|'([^'\n]+)'")
#: quotes and end punctuation around a whole answer
_WRAPPING = " \t\r\n`'\"*.!"


def _quote(answer: str) -> str:
    """A bad answer as an error line quotes it: at most :data:`QUOTED` characters, in JSON
    string form (so a line break in it is not one in the error line)."""
    shown = answer if len(answer) <= QUOTED else answer[: QUOTED - 3] + "..."
    return json.dumps(shown)


def _valid(moves: Sequence[str], listed: bool, hint: str) -> str:
    """What a valid answer looks like, for the end of an error line."""
    if not listed:
        return f"answer one move: {hint}"
    if len(moves) == 1:
        return f'answer the only legal move, "{moves[0]}", or its number 1'
    return (
        f'answer one of the {len(moves)} legal moves as listed (e.g. "{moves[0]}") '
        f"or its number from 1 to {len(moves)}"
    )


def read_move(state: State, player: int, answer: str, *, listed: bool = True) -> Action:
    """The legal move of ``player`` that ``answer`` names, read tolerantly: the move's text
    (case and spacing ignored, quotes around it too), its number in the moves list (1-based;
    only when the list was sent, ``listed``), JSON (``{"move": "..."}``, ``{"index": n}``, a
    JSON string or number), or prose in which exactly one legal move appears (a move quoted in
    it first). Raises :class:`BadAnswer`, one line saying why and what a valid move looks
    like, otherwise."""
    actions = state.legal_actions(player)
    texts = [str(action) for action in actions]
    hint = grammar(state, player) if not listed else ""
    if not actions:
        raise BadAnswer(f"seat {player} has no move to make now; answer nothing")
    if not isinstance(answer, str):
        raise BadAnswer(f"an answer is one line of text; {_valid(texts, listed, hint)}")
    by_text = {_norm(text): action for text, action in zip(texts, actions, strict=True)}
    answer = answer.strip()
    if not answer:
        raise BadAnswer(f"the answer was empty; {_valid(texts, listed, hint)}")

    def numbered(number: int) -> Action:
        if not listed:
            raise BadAnswer(
                f"{number} is a number, but no moves were listed; {_valid(texts, listed, hint)}"
            )
        if not 1 <= number <= len(actions):
            raise BadAnswer(
                f"there is no move {number}: the moves are numbered from 1 to {len(actions)}; "
                + _valid(texts, listed, hint)
            )
        return actions[number - 1]

    def named(text: str) -> Action | None:
        found = by_text.get(_norm(text.strip(_WRAPPING)))
        if found is not None:
            return found
        try:
            parsed = state.parse_action(player, text.strip(_WRAPPING))
        except IllegalAction:
            return None
        return actions[actions.index(parsed)] if parsed in actions else None

    if answer[0] in '{["' or answer.lstrip("-").isdigit():
        try:
            data = json.loads(answer)
        except ValueError:
            data = None
        else:
            return _from_json(data, answer, numbered, named, texts, listed, hint)
    number = _NUMBER.match(answer)
    if number is not None:
        return numbered(int(number[1]))
    exact = named(answer)
    if exact is not None:
        return exact
    return _from_prose(answer, by_text, named, texts, listed, hint, state, player)


def _from_json(
    data: object,
    answer: str,
    numbered: Callable[[int], Action],
    named: Callable[[str], Action | None],
    texts: Sequence[str],
    listed: bool,
    hint: str,
) -> Action:
    """The move a JSON answer names (see :func:`read_move`)."""
    valid = _valid(texts, listed, hint)
    if isinstance(data, bool):
        raise BadAnswer(f"{_quote(answer)} names no move; {valid}")
    if isinstance(data, int):
        return numbered(data)
    if isinstance(data, str):
        found = named(data)
        if found is None:
            raise BadAnswer(f"{_quote(data)} is not a legal move now; {valid}")
        return found
    if isinstance(data, dict):
        if "move" in data and isinstance(data["move"], str):
            found = named(data["move"])
            if found is None:
                raise BadAnswer(f"{_quote(data['move'])} is not a legal move now; {valid}")
            return found
        index = data.get("index")
        if isinstance(index, int) and not isinstance(index, bool):
            return numbered(index)
    raise BadAnswer(
        'a JSON answer is {"move": "<a move>"} or {"index": <its number>}, not '
        f"{_quote(answer)}; {valid}"
    )


def _from_prose(
    answer: str,
    by_text: dict[str, Action],
    named: Callable[[str], Action | None],
    texts: Sequence[str],
    listed: bool,
    hint: str,
    state: State,
    player: int,
) -> Action:
    """The one legal move that prose names: a quoted one, else one whose text appears in it
    as whole words (a move inside a longer move that also appears does not count)."""
    valid = _valid(texts, listed, hint)
    quoted = {
        str(found): found
        for groups in _QUOTED.findall(answer)
        for part in groups
        if part and (found := named(part)) is not None
    }
    if len(quoted) == 1:
        return next(iter(quoted.values()))
    said = f" {_norm(answer)} "
    seen = [
        text
        for text in by_text
        if re.search(r"(?<![\w/-])" + re.escape(text) + r"(?![\w/-])", said) is not None
    ]
    seen = [text for text in seen if not any(text != other and text in other for other in seen)]
    if len(seen) == 1:
        return by_text[seen[0]]
    if len(seen) > 1:
        shown = ", ".join(f'"{text}"' for text in seen[:3]) + (", ..." if len(seen) > 3 else "")
        raise BadAnswer(f"the answer names {len(seen)} legal moves ({shown}); {valid}")
    try:
        parsed = state.parse_action(player, answer.strip(_WRAPPING))
    except IllegalAction:
        raise BadAnswer(f"{_quote(answer)} is not a move; {valid}") from None
    del parsed  # a move of the game, but not one of the seat's legal moves now
    raise BadAnswer(f"{_quote(answer)} is not a legal move now; {valid}")


# -- an agent outside the process ------------------------------------------------------------


@dataclass
class Policy:
    """What the table does with an outside agent: how many times it asks again after an
    answer that is no legal move (``retries``), what it does when the agent gives none, times
    out or is gone (``fallback``: a random legal move for it, or ``"forfeit"``), and the time
    each move may take, retries included (``seconds``; ``None`` for no limit)."""

    retries: int = 2
    fallback: str = "random"
    seconds: float | None = None

    def __post_init__(self) -> None:
        if isinstance(self.retries, bool) or not isinstance(self.retries, int):
            raise ValueError(f"retries must be a whole number, not {self.retries!r}")
        if self.retries < 0:
            raise ValueError(f"retries must be 0 or more, not {self.retries}")
        if self.fallback not in FALLBACKS:
            allowed = ", ".join(FALLBACKS)
            raise ValueError(f"fallback must be one of {allowed}, not {self.fallback!r}")
        if self.seconds is not None and not (self.seconds > 0 and math.isfinite(self.seconds)):
            raise ValueError(f"seconds must be positive, not {self.seconds!r}")


@dataclass(frozen=True)
class PolicyChanges:
    """The settings of a :class:`Policy` that a table sets for all its outside agents (the
    command line's ``--retries``, ``--fallback`` and ``--move-seconds``); each left ``None``
    stays the agent's own (10 s a move for ``cmd:`` and ``ws:``, an ``llm:`` spec's options).
    Checked as a :class:`Policy` checks them (:class:`ValueError`)."""

    retries: int | None = None
    fallback: str | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        Policy(
            2 if self.retries is None else self.retries,
            "random" if self.fallback is None else self.fallback,
            self.seconds,
        )

    def given(self) -> dict[str, Any]:
        """The settings set, by name (stored with a run's plan, so that it resumes alike)."""
        return {k: v for k, v in asdict(self).items() if v is not None}

    @classmethod
    def from_given(cls, data: dict[str, Any]) -> PolicyChanges:
        """The changes :meth:`given` wrote (:class:`ValueError`, :class:`TypeError` if not)."""
        return cls(**data)

    def applied(self, policy: Policy, *, keep: Collection[str] = ()) -> Policy:
        """``policy`` with these changes, except the settings named in ``keep``."""
        changed = {k: v for k, v in self.given().items() if k not in keep}
        return replace(policy, **changed)

    def describe(self) -> str:
        """``retries 0, fallback forfeit, 5 s a move`` (the settings set)."""
        said = [f"retries {self.retries}"] if self.retries is not None else []
        said += [f"fallback {self.fallback}"] if self.fallback is not None else []
        said += [f"{self.seconds:g} s a move"] if self.seconds is not None else []
        return ", ".join(said) or "each agent's own policy"


#: what :attr:`OutsideAgent.tally` counts, each game
TALLY = (
    "moves",
    "answers",
    "retries",
    "bad_answers",
    "timeouts",
    "gone",
    "fallbacks",
    "forfeits",
    "seconds",
)


class OutsideAgent(Agent):
    """The base of every agent outside the process: asks its seat for each move with
    :func:`move_request` through :meth:`exchange` and reads the answer with
    :func:`read_move`, under the table's :class:`Policy`.

    Subclasses implement :meth:`exchange` (send one message, return the one-line answer) and,
    where they need them, :meth:`open` (the seat's game begins), :meth:`send` (a message that
    takes no answer) and :meth:`close`. ``moves=False`` withholds the legal moves (the request
    gives their grammar instead)."""

    name = "outside"

    def __init__(self, seed: int = 0, *, policy: Policy | None = None, moves: bool = True) -> None:
        super().__init__(seed)
        self.seed = seed
        self.policy = policy if policy is not None else Policy()
        self.moves = moves
        #: per game, what happened: see :data:`TALLY`
        self._tally: dict[str, float] = dict.fromkeys(TALLY, 0)
        #: per game, each retry, timeout and fallback in words:
        #: ``{"move": n, "kind": ..., "detail": ...}``, ``n`` the game's move number
        self.incidents: list[dict[str, Any]] = []
        #: the game and seat this agent plays now (``None`` before its first move)
        self._playing: tuple[Setup, int] | None = None
        #: why the agent cannot be reached any more (``None`` while it can)
        self.gone: str | None = None

    # -- what subclasses supply ----------------------------------------------------------------
    @abstractmethod
    def exchange(self, message: dict[str, Any], seconds: float | None) -> str:
        """Send ``message`` and return the agent's one-line answer; :class:`TimeoutError` if
        none comes within ``seconds`` (``None``: no limit), :class:`AgentGone` (or another
        :class:`ConnectionError`/:class:`OSError`/:class:`EOFError`) if the agent is gone."""

    def send(self, message: dict[str, Any]) -> None:
        """Send a message that takes no answer (``start``, ``error``, ``end``); nothing by
        default."""

    def open(self, state: State, player: int) -> None:
        """The seat's game begins (before its first move): by default, :meth:`send` the
        ``start`` message."""
        self.send(start_message(state.setup, player, agent_seed_of(self.seed)))

    def close(self) -> None:
        """The seat's game is over, or the agent is discarded: release what :meth:`open`
        took. Nothing by default; must be safe to call twice."""

    def sit_under(self, changes: PolicyChanges) -> None:
        """Play under the table's ``changes`` to this agent's policy (each setting not
        changed stays its own)."""
        self.policy = changes.applied(self.policy)

    # -- the game loop's side ------------------------------------------------------------------
    @property
    def tally(self) -> dict[str, float]:
        """What happened in this game: moves asked, answers read, retries, bad answers,
        timeouts, moves made while the agent was gone, fallbacks, forfeits and the seconds
        spent waiting for answers."""
        return dict(self._tally)

    def act(self, state: State, player: int) -> Action:
        if self._playing != (state.setup, player):
            if self._playing is not None:
                self.close()
            self._tally = dict.fromkeys(TALLY, 0)
            self.incidents = []
            self.gone = None
            self._playing = (state.setup, player)
            try:
                self.open(state, player)
            except (OSError, EOFError) as error:
                self.gone = (
                    str(error) if isinstance(error, AgentGone) else f"could not start: {error}"
                )
        self._tally["moves"] += 1
        if self.gone is not None:
            self._tally["gone"] += 1
            return self._fall_back(state, player, "gone", self.gone)
        limit = self.policy.seconds
        started = time.monotonic()
        reason = ""
        for attempt in range(self.policy.retries + 1):
            left = None if limit is None else max(0.0, limit - (time.monotonic() - started))
            request = move_request(state, player, moves=self.moves, deadline=left)
            if attempt:
                request["retry"] = attempt
                request["error"] = reason
            asked = time.monotonic()
            try:
                answer = self.exchange(request, left)
            except TimeoutError:
                self._tally["seconds"] += time.monotonic() - asked
                self._tally["timeouts"] += 1
                within = "in time" if limit is None else f"within {limit:g} s"
                return self._fall_back(state, player, "timeout", f"no answer {within}")
            except (OSError, EOFError) as error:
                self._tally["seconds"] += time.monotonic() - asked
                self.gone = str(error) or type(error).__name__
                self._tally["gone"] += 1
                return self._fall_back(state, player, "gone", self.gone)
            self._tally["seconds"] += time.monotonic() - asked
            self._tally["answers"] += 1
            try:
                return read_move(state, player, answer, listed=self.moves)
            except BadAnswer as bad:
                reason = str(bad)
            self._tally["bad_answers"] += 1
            self._incident(state, "bad answer", reason)
            try:
                self.send(error_message(reason))
            except (OSError, EOFError) as error:
                self.gone = str(error) or type(error).__name__
                self._tally["gone"] += 1
                return self._fall_back(state, player, "gone", self.gone)
            if attempt < self.policy.retries:
                self._tally["retries"] += 1
        tries = self.policy.retries + 1
        said = "1 answer was" if tries == 1 else f"{tries} answers were"
        return self._fall_back(state, player, "bad answers", f"{said} no legal move")

    def finish(self, state: State) -> None:
        """Send the ``end`` message with the results, and :meth:`close`."""
        if self._playing is None:
            return
        player = self._playing[1]
        try:
            if self.gone is None:
                self.send(end_message(state, player))
        except (OSError, EOFError):
            pass
        finally:
            self.close()
            self._playing = None

    # -- helpers ---------------------------------------------------------------------------------
    def _incident(self, state: State, kind: str, detail: str) -> None:
        self.incidents.append({"move": len(state.history), "kind": kind, "detail": detail})
        log.info("%s, move %d: %s: %s", self, len(state.history), kind, detail)

    def _fall_back(self, state: State, player: int, kind: str, detail: str) -> Action:
        """The table's policy once the agent gave no legal move: a random one, or a forfeit."""
        self._incident(state, kind, detail)
        if self.policy.fallback == "forfeit":
            self._tally["forfeits"] += 1
            raise Forfeit(player, detail)
        self._tally["fallbacks"] += 1
        return random_move(state, player, self.rng)


def ask_together(
    jobs: Sequence[tuple[Agent, State, int]], workers: int | None = None
) -> list[Action]:
    """The moves of several seats asked at once, in the order of ``jobs`` (agent, state,
    seat): what a game loop calls in a simultaneous phase, so that seats played by models or
    programs think at the same time instead of one after another.

    Agents outside the process (:class:`OutsideAgent`) are asked in threads, each on its own
    clone of its state; the others (bots in this process, which would only take turns on the
    interpreter) move in the calling thread. An agent that sits in two jobs is asked once at a
    time. When an agent raises, the others still finish, then the first error (in job order)
    is raised."""
    results: list[Action | BaseException | None] = [None] * len(jobs)
    outside = [i for i, (agent, _, _) in enumerate(jobs) if isinstance(agent, OutsideAgent)]
    seen: set[int] = set()
    threaded: list[int] = []
    for i in outside:
        if id(jobs[i][0]) not in seen:
            seen.add(id(jobs[i][0]))
            threaded.append(i)
    inline = [i for i in range(len(jobs)) if i not in set(threaded)]

    def ask(i: int, state: State) -> None:
        agent, _, seat = jobs[i]
        try:
            results[i] = agent.act(state, seat)
        except BaseException as exc:
            results[i] = exc

    if threaded:
        with ThreadPoolExecutor(max_workers=workers or len(threaded)) as pool:
            futures = [pool.submit(ask, i, jobs[i][1].clone()) for i in threaded]
            for i in inline:
                ask(i, jobs[i][1])
            for future in futures:
                future.result()
    else:
        for i in inline:
            ask(i, jobs[i][1])
    moves: list[Action] = []
    for result in results:
        if isinstance(result, BaseException):
            raise result
        assert result is not None
        moves.append(result)
    return moves
