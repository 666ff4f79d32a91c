"""The ``llm:MODEL@BASE_URL`` seat: a language model behind any OpenAI-compatible chat endpoint
plays through the move protocol (:mod:`rulebook.agents.protocol`).

Each move is one short conversation: a system message with the game's how-to-play and the
answer format, then a user message with the seat's text view and its legal moves, numbered (or,
with ``moves=0``, only how moves are written). An answer that is no legal move gets the
protocol's one-line reason as the next user message, and the model answers again, up to the
policy's retries; then the policy's fallback plays. Tokens (from the server's ``usage``), the
time spent waiting on the server and the cost are counted per game in :attr:`LLMAgent.tally`.

Spec: ``llm:MODEL@BASE_URL`` with options after the URL as a query string, e.g.
``llm:gpt-4o-mini@https://api.openai.com/v1?moves=0&seconds=30&budget=200000`` (see
:data:`OPTIONS`, and docs/llm.md). The API key comes from ``RULEBOOK_LLM_API_KEY``, else
``OPENAI_API_KEY``; a local server that needs none is sent a placeholder.
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from rulebook.agents.base import Agent
from rulebook.agents.protocol import OutsideAgent, Policy, PolicyChanges, agent_seed_of
from rulebook.core import Action, RulebookError, State, get_game

if TYPE_CHECKING:
    from openai import OpenAI
    from openai.types import CompletionUsage
    from openai.types.chat import ChatCompletionMessageParam

#: where the API key is read, in this order
KEY_VARIABLES = ("RULEBOOK_LLM_API_KEY", "OPENAI_API_KEY")
#: the key sent when none is set: local servers (vLLM, llama.cpp, Ollama...) want none, and the
#: client refuses to send a request without one
NO_KEY = "no-key"
#: HTTP answers worth asking again after a pause: the server is busy, not refusing
TRANSIENT = frozenset({408, 409, 429, 500, 502, 503, 504})
#: how often a transient answer is tried again within a move's time, and the first pause
SERVER_ATTEMPTS = 3
FIRST_PAUSE = 1.0

_SPEC = re.compile(r"^(?P<model>[^?#\s]+?)@(?P<url>https?://\S+)$")
_THINKING = re.compile(r"<think(?:ing)?>.*?(?:</think(?:ing)?>|$)", re.DOTALL | re.IGNORECASE)

SPEC_FORM = "llm:MODEL@BASE_URL[?option=value&...] (e.g. llm:gpt-4o-mini@http://127.0.0.1:8000/v1)"


class LLMError(RulebookError):
    """A model seat that cannot play: a bad spec, or a server that cannot be reached or
    refuses the request. Its message is one line."""


@dataclass(frozen=True)
class Settings:
    """What an ``llm:`` spec sets (the options are documented in :data:`OPTIONS`)."""

    model: str
    base_url: str
    moves: bool = True
    retries: int = 2
    fallback: str = "random"
    seconds: float | None = 60.0
    tokens: int | None = 2000
    budget: int | None = None
    price_in: float = 0.0
    price_out: float = 0.0
    temperature: float | None = None
    #: the options the spec writes (the others are the defaults above)
    given: frozenset[str] = frozenset()

    @property
    def priced(self) -> bool:
        return self.price_in > 0 or self.price_out > 0

    def policy(self) -> Policy:
        return Policy(retries=self.retries, fallback=self.fallback, seconds=self.seconds)


def _flag(value: str) -> bool:
    lowered = value.lower()
    if lowered in ("1", "yes", "true", "on"):
        return True
    if lowered in ("0", "no", "false", "off"):
        return False
    raise ValueError("give 1 or 0")


def _count(value: str) -> int:
    number = int(value)
    if number < 0:
        raise ValueError("give a whole number, 0 or more")
    return number


def _limit(value: str) -> int | None:
    """A positive whole number, or 0 for no limit."""
    return _count(value) or None


def _seconds(value: str) -> float | None:
    number = float(value)
    if not math.isfinite(number) or number < 0:
        raise ValueError("give seconds, 0 or more")
    return number or None


def _price(value: str) -> float:
    number = float(value)
    if not math.isfinite(number) or number < 0:
        raise ValueError("give a price, 0 or more")
    return number


def _fallback(value: str) -> str:
    if value.lower() not in ("random", "forfeit"):
        raise ValueError("give random or forfeit")
    return value.lower()


def _temperature(value: str) -> float:
    number = float(value)
    if not math.isfinite(number) or not 0 <= number <= 2:
        raise ValueError("give a number from 0 to 2")
    return number


#: the spec's options: name -> (how its value is read, what it sets)
OPTIONS: dict[str, tuple[Callable[[str], Any], str]] = {
    "moves": (_flag, "1: list the legal moves, numbered (default); 0: only how moves are written"),
    "retries": (_count, "bad answers answered with the reason and asked again (default 2)"),
    "fallback": (_fallback, "after the retries: random (a random legal move) or forfeit"),
    "seconds": (_seconds, "time limit of each request to the server (default 60; 0: none)"),
    "tokens": (_limit, "most tokens of one answer, sent as max_tokens (default 2000; 0: none)"),
    "budget": (_limit, "most tokens of a game, prompts and answers; then the fallback plays"),
    "price_in": (_price, "price per million prompt tokens (default 0: cost unknown)"),
    "price_out": (_price, "price per million answer tokens (default 0: cost unknown)"),
    "temperature": (_temperature, "sampling temperature, 0 to 2 (default: the server's)"),
}


def parse_spec(rest: str) -> Settings:
    """The settings of ``llm:`` + ``rest`` (``MODEL@BASE_URL[?options]``, case kept);
    :class:`LLMError` in one line naming what is wrong."""
    match = _SPEC.match(rest.strip())
    if match is None:
        raise LLMError(f"bad llm seat {('llm:' + rest)!r}: give {SPEC_FORM}")
    parts = urlsplit(match["url"])
    if not parts.hostname:
        raise LLMError(f"bad llm seat {('llm:' + rest)!r}: the URL names no host")
    base_url = urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))
    chosen: dict[str, Any] = {}
    try:
        pairs = parse_qsl(parts.query, keep_blank_values=True, strict_parsing=bool(parts.query))
    except ValueError:
        raise LLMError(
            f"bad options {parts.query!r} in llm seat: write them as ?name=value&name=value"
        ) from None
    for name, value in pairs:
        if name not in OPTIONS:
            raise LLMError(
                f"llm seat has no option {name!r} (options: {', '.join(OPTIONS)}; see docs/llm.md)"
            )
        if name in chosen:
            raise LLMError(f"llm seat option {name!r} is given twice")
        read, _ = OPTIONS[name]
        try:
            chosen[name] = read(value.strip())
        except ValueError as exc:
            reason = str(exc) if str(exc).startswith("give") else "not a number"
            raise LLMError(f"bad llm seat option {name}={value!r}: {reason}") from None
    return Settings(model=match["model"], base_url=base_url, given=frozenset(chosen), **chosen)


def api_key(environ: Mapping[str, str] | None = None) -> str:
    """The API key: the first of :data:`KEY_VARIABLES` set, else the placeholder."""
    environ = os.environ if environ is None else environ
    for name in KEY_VARIABLES:
        if environ.get(name, "").strip():
            return environ[name].strip()
    return NO_KEY


# -- the prompt -----------------------------------------------------------------------------------
def system_prompt(message: Mapping[str, Any]) -> str:
    """The system message of a move request: the game, its how-to-play, the answer format."""
    return _system_prompt(
        str(message["game"]), str(message["variant"]), int(message["players"]), "moves" in message
    )


@functools.lru_cache(maxsize=64)
def _system_prompt(name: str, variant: str, players: int, listed: bool) -> str:
    game = get_game(name)
    rules = game.how_to_play() or f"(No how-to-play is written for {game.title}.)"
    answer = (
        "Each time you are to move you are shown the table as you see it and your legal "
        "moves, numbered. Answer with exactly one of them: its text as listed, or its number."
        if listed
        else "Each time you are to move you are shown the table as you see it and how moves "
        "are written. Answer with exactly one legal move, written that way."
    )
    return (
        f"You are playing {game.title} ({variant}, "
        f"{players} player{'s' if players != 1 else ''}). Play to win.\n\n"
        f"{rules.strip()}\n\n"
        f"# How to answer\n\n{answer} Put the move alone on one line, with nothing else. "
        "If your answer is not a legal move you are told why in one line and asked again."
    )


def user_prompt(message: Mapping[str, Any]) -> str:
    """The user message of a move request: the seat's view and its moves (or their grammar)."""
    text = str(message.get("text", "")).rstrip()
    if "moves" in message:
        moves = "\n".join(f"{n}. {move}" for n, move in enumerate(message["moves"], 1))
        return f"{text}\n\nYour legal moves:\n{moves}\n\nYour move (its text or its number):"
    grammar = message.get("grammar", "")
    if not isinstance(grammar, str):
        grammar = json.dumps(grammar, indent=2, ensure_ascii=False)
    return f"{text}\n\nHow moves are written:\n{grammar.rstrip()}\n\nYour move:"


def one_line(content: str | None) -> str:
    """A model's answer as one line: a reasoning model's ``<think>`` part left out, the rest's
    lines joined (the protocol's parser finds a move quoted in prose)."""
    if not content:
        return ""
    return " ".join(_THINKING.sub(" ", content).split())


# -- the seat -------------------------------------------------------------------------------------
#: what :attr:`LLMAgent.tally` counts besides the protocol's :data:`~protocol.TALLY`, each game
LLM_TALLY = (
    "requests",
    "prompt_tokens",
    "completion_tokens",
    "tokens",
    "latency",
    "latency_max",
    "unmetered",
    "truncated",
    "server_retries",
    "over_budget",
)


class LLMAgent(OutsideAgent):
    """A language model at the table, through an OpenAI-compatible chat endpoint
    (:func:`make_llm` reads its spec). ``client`` replaces the one made from the settings."""

    def __init__(self, settings: Settings, seed: int = 0, client: OpenAI | None = None) -> None:
        super().__init__(seed, policy=settings.policy(), moves=settings.moves)
        self.settings = settings
        self.name = f"llm:{settings.model}"
        self._client = client
        self._conversation: list[ChatCompletionMessageParam] = []
        self._llm: dict[str, float] = dict.fromkeys(LLM_TALLY, 0)

    @property
    def tally(self) -> dict[str, float]:
        """The protocol's tally of this game, with the requests sent, the tokens of their
        prompts and answers (as the server's ``usage`` reports them), the seconds spent
        waiting on the server (``latency``, the slowest request's ``latency_max``), requests
        whose answer reported no usage (``unmetered``), answers cut short by the ``tokens``
        limit (``truncated``), busy answers asked again
        (``server_retries``), moves the fallback played once the token budget was spent
        (``over_budget``) and, when the spec gives prices, the ``cost``."""
        counted = {**super().tally, **self._llm}
        if self.settings.priced:
            counted["cost"] = (
                self._llm["prompt_tokens"] * self.settings.price_in
                + self._llm["completion_tokens"] * self.settings.price_out
            ) / 1_000_000
        return counted

    @property
    def over_budget(self) -> bool:
        """Whether this game's tokens reached the budget (then the fallback plays)."""
        budget = self.settings.budget
        return budget is not None and self._llm["tokens"] >= budget

    def sit_under(self, changes: PolicyChanges) -> None:
        """The table's changes to the policy, except the settings the spec writes itself
        (``retries``, ``fallback``, ``seconds``: the seat's own words come first)."""
        self.policy = changes.applied(self.policy, keep=self.settings.given)

    # -- the protocol -------------------------------------------------------------------------
    def open(self, state: State, player: int) -> None:
        """A new game: the counts start again (the model needs no ``start`` message: each
        move's prompt says everything)."""
        self._llm = dict.fromkeys(LLM_TALLY, 0)
        self._conversation = []

    def act(self, state: State, player: int) -> Action:
        if self._playing == (state.setup, player) and self.over_budget:
            self._tally["moves"] += 1
            self._llm["over_budget"] += 1
            budget = self.settings.budget
            return self._fall_back(
                state, player, "over budget", f"the game's {budget} tokens are spent"
            )
        return super().act(state, player)

    def exchange(self, message: dict[str, Any], seconds: float | None) -> str:
        """Ask the model for a move: a new conversation for a ``move`` message, the protocol's
        error line as the next user message for a retry of it. Returns the answer in one
        line; :class:`TimeoutError` past ``seconds``; :class:`LLMError` if the server cannot
        be reached or refuses."""
        if message.get("type") != "move":
            return ""
        if message.get("retry") and self._conversation:
            self._conversation.append({"role": "user", "content": str(message["error"])})
        else:
            self._conversation = [
                {"role": "system", "content": system_prompt(message)},
                {"role": "user", "content": user_prompt(message)},
            ]
        answer = self._complete(seconds)
        self._conversation.append({"role": "assistant", "content": answer})
        return one_line(answer)

    def close(self) -> None:
        self._conversation = []
        if self._client is not None:
            self._client.close()
            self._client = None

    # -- the server ---------------------------------------------------------------------------
    @property
    def client(self) -> OpenAI:
        if self._client is None:
            from openai import OpenAI

            self._client = OpenAI(api_key=api_key(), base_url=self.settings.base_url, max_retries=0)
        return self._client

    def _complete(self, seconds: float | None) -> str:
        """Send the conversation and return the answer's text, within ``seconds`` (busy
        answers asked again after a pause while time is left). Counts the request, its tokens
        and its time."""
        import openai

        s = self.settings
        arguments: dict[str, Any] = {
            "model": s.model,
            "messages": self._conversation,
            "seed": agent_seed_of(self.seed),
        }
        if s.tokens is not None:
            arguments["max_tokens"] = s.tokens
        if s.temperature is not None:
            arguments["temperature"] = s.temperature
        started = time.monotonic()
        pause = FIRST_PAUSE
        for attempt in range(1, SERVER_ATTEMPTS + 1):
            left = None if seconds is None else seconds - (time.monotonic() - started)
            if left is not None and left <= 0:
                break
            begun = time.monotonic()
            try:
                completion = self.client.chat.completions.create(**arguments, timeout=left)
            except openai.APITimeoutError:
                self._waited(begun)
                break
            except openai.APIConnectionError as exc:
                raise LLMError(
                    f"cannot reach the model server at {s.base_url} ({_cause(exc)}): "
                    "is it running, and is the URL right?"
                ) from None
            except openai.APIStatusError as exc:
                self._waited(begun)
                wait = pause if left is None else min(pause, left - (time.monotonic() - begun))
                if exc.status_code not in TRANSIENT or attempt == SERVER_ATTEMPTS or wait <= 0:
                    raise LLMError(_refusal(s, exc)) from None
                self._llm["server_retries"] += 1
                time.sleep(wait)
                pause *= 2
                continue
            self._waited(begun)
            self._meter(completion.usage)
            choice = completion.choices[0] if completion.choices else None
            if choice is not None and choice.finish_reason == "length":
                self._llm["truncated"] += 1
            return (choice.message.content if choice is not None else None) or ""
        raise TimeoutError(f"{s.model} gave no answer within {seconds or 0:g} s")

    def _waited(self, begun: float) -> None:
        seconds = time.monotonic() - begun
        self._llm["requests"] += 1
        self._llm["latency"] += seconds
        self._llm["latency_max"] = max(self._llm["latency_max"], seconds)

    def _meter(self, usage: CompletionUsage | None) -> None:
        if usage is None:
            self._llm["unmetered"] += 1
            return
        self._llm["prompt_tokens"] += usage.prompt_tokens
        self._llm["completion_tokens"] += usage.completion_tokens
        self._llm["tokens"] += usage.prompt_tokens + usage.completion_tokens


def _cause(exc: BaseException) -> str:
    """The innermost reason of a connection error, in a few words."""
    while exc.__cause__ is not None or exc.__context__ is not None:
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:120]


def _refusal(settings: Settings, exc: Any) -> str:
    """One line for an HTTP error answer of the server."""
    body = exc.body
    detail = ""
    if isinstance(body, dict):
        error = body.get("error", body)
        detail = str(error.get("message", "")) if isinstance(error, dict) else str(error)
    detail = " ".join((detail or str(exc.message)).split())[:200]
    hint = ""
    if exc.status_code in (401, 403):
        hint = f" (set {KEY_VARIABLES[0]} to the server's API key)"
    elif exc.status_code == 404:
        hint = f" (is {settings.model!r} a model this server has, and the URL its /v1?)"
    return f"the model server at {settings.base_url} answered {exc.status_code}: {detail}{hint}"


def make_llm(rest: str, seed: int = 0) -> Agent:
    """The agent of the seat spec ``llm:`` + ``rest`` (see the module docstring);
    :class:`LLMError` in one line for a bad spec, or without the ``openai`` package."""
    settings = parse_spec(rest)
    try:
        import openai  # noqa: F401
    except ImportError:
        raise LLMError("llm: seats need the openai package: pip install 'rulebook[llm]'") from None
    return LLMAgent(settings, seed)


# -- several seats at once ------------------------------------------------------------------------
