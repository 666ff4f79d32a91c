"""The hot modules compiled with mypyc: the default wherever they are built and current.

``make compiled`` (``make run``, ``make test``, ``make bench`` and ``make same-games`` run it; a
no-op when nothing changed) compiles :data:`MODULES` with mypyc into ``build/mypyc/`` beside
``src/`` (an installed copy without a source tree: into the user's cache,
``~/.cache/rulebook/mypyc``), with a stamp naming the interpreter and each source's SHA-256.
When ``rulebook`` is imported, :func:`install` checks the stamp: if it matches (same
interpreter, every source unchanged since it was compiled), a finder loads those modules from
their compiled files; otherwise every module is imported from its ``.py`` as usual and
:data:`fallback` says why. So a compiled file never stands in for a source edited since (the
next ``make compiled`` builds it again). ``RULEBOOK_COMPILED=0`` forces pure Python. Both give
the very same games (``tests/test_compiled.py``, ``benchmarks/same_games.py``).

**First use.** The command line (:func:`notice`) says in one line on stderr when it runs pure
Python and why. When the modules were never built, it starts :func:`build` in the background
(a few minutes; one build at a time, under a lock) and says so: the runs after it use them.
Where they cannot be built (no mypyc, no C compiler, a folder that cannot be written) it says
that instead; sources edited since a build are rebuilt by ``make compiled``, not behind a
developer's back.

**The same errors.** A compiled function checks its arguments' declared types at the call, so
``state.legal_actions("0")`` raised ``TypeError`` where pure Python raises
:class:`~rulebook.core.errors.IllegalAction` (and pure Python itself took a seat given as text
in some methods, ``parse_action("0", ...)``, and raised ``TypeError`` in others). The bots' two
hot methods check the seat themselves, at no cost to a seat that is an ``int``:
``legal_actions`` (each game's takes ``player: object`` and returns ``State.no_moves`` for
anything but an ``int``) and ``State.lookahead`` (:meth:`~rulebook.core.state.State.seat_number`
for anything but an ``int``). The game states of :data:`MODULES`, compiled or not, have their
other methods that take a seat (:data:`SEAT_METHODS`) guarded (:func:`guard_seats`) when called
from Python. Either way a seat that is no whole number is refused with
:class:`~rulebook.core.errors.IllegalAction` by :meth:`~rulebook.core.state.State.check_seat`,
any integer type (``numpy.int64``) is taken as its ``int``, and an out-of-range seat is refused
too. Compiled callers reach the compiled methods directly.

The modules are the sheet games' rules and evaluation, the sheet engine (its section modules
and its lookahead), the policies and the search: what the bots spend their time in; and Battle
Merchants' moves, rules (the state, the sections a move goes through and what each seat
sees: a server builds a view for every viewer at every move), words (a server tells every
move and lists every menu in them), evaluation and
lookahead, Pandoria Merchants' map, rules, evaluation and lookahead, and Archmagi's rules
(every section module; ``archmagi.symbols``: its cards), evaluation and greedy lookahead; and
the observation encoders (the sheet games' shared one, each game's ``encoding`` and
:mod:`rulebook.core.writes`, what the fast ones list), which the research adapters call at
every step, and the loops of the batched environment's step (:mod:`rulebook.core.batch`). Not
:mod:`rulebook.core.chance`: its scripted generator derives from ``random.Random``, which a
compiled class cannot (the interpreter crashed seeding it); the draws of its shuffles and
rolls are in :mod:`rulebook.core.draws`, which is compiled. Every other module, and every other
game, is Python either way (their moves derive from :class:`rulebook.core.action.Action`,
compiled to allow that).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Callable, Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ExtensionFileLoader, ModuleSpec, SourceFileLoader
from pathlib import Path
from types import ModuleType
from typing import Any

#: the modules compiled, in dependency order
MODULES = (
    "rulebook.core.action",
    "rulebook.core.draws",
    "rulebook.core.batch",
    "rulebook.core.sheet",
    "rulebook.core.policy",
    "rulebook.core.rollwrite.moves",
    "rulebook.core.rollwrite.state",
    "rulebook.core.rollwrite.customers",
    "rulebook.core.rollwrite.extra_dice",
    "rulebook.core.rollwrite.mastery",
    "rulebook.core.rollwrite.customer_phase",
    "rulebook.core.rollwrite.rounds",
    "rulebook.core.rollwrite.crafting",
    "rulebook.core.rollwrite.describe",
    "rulebook.core.rollwrite.view",
    "rulebook.core.rollwrite.engine",
    "rulebook.core.rollwrite.lookahead",
    "rulebook.core.rollwrite.bots",
    "rulebook.merchants_of_magick.rules",
    "rulebook.merchants_of_magick.bots",
    "rulebook.ye_olde_magick_shoppe.rules",
    "rulebook.ye_olde_magick_shoppe.bots",
    "rulebook.battle_merchants.actions",
    "rulebook.battle_merchants.state",
    "rulebook.battle_merchants.setup",
    "rulebook.battle_merchants.two_players",
    "rulebook.battle_merchants.kingdom",
    "rulebook.battle_merchants.craft",
    "rulebook.battle_merchants.year_end",
    "rulebook.battle_merchants.seasons",
    "rulebook.battle_merchants.turns",
    "rulebook.battle_merchants.forge",
    "rulebook.battle_merchants.sell",
    "rulebook.battle_merchants.view",
    "rulebook.battle_merchants.words",
    "rulebook.battle_merchants.rules",
    "rulebook.battle_merchants.bots",
    "rulebook.battle_merchants.lookahead",
    "rulebook.pandoria_merchants.board",
    "rulebook.pandoria_merchants.terms",
    "rulebook.pandoria_merchants.moves",
    "rulebook.pandoria_merchants.state",
    "rulebook.pandoria_merchants.dice",
    "rulebook.pandoria_merchants.buying",
    "rulebook.pandoria_merchants.buildings",
    "rulebook.pandoria_merchants.drawing",
    "rulebook.pandoria_merchants.spells",
    "rulebook.pandoria_merchants.family",
    "rulebook.pandoria_merchants.actions",
    "rulebook.pandoria_merchants.scoring",
    "rulebook.pandoria_merchants.solo",
    "rulebook.pandoria_merchants.final_score",
    "rulebook.pandoria_merchants.view",
    "rulebook.pandoria_merchants.words",
    "rulebook.pandoria_merchants.rules",
    "rulebook.pandoria_merchants.bots",
    "rulebook.pandoria_merchants.lookahead",
    "rulebook.archmagi.symbols",
    "rulebook.archmagi.moves",
    "rulebook.archmagi.state",
    "rulebook.archmagi.setup",
    "rulebook.archmagi.rounds",
    "rulebook.archmagi.flow",
    "rulebook.archmagi.actions",
    "rulebook.archmagi.monsters",
    "rulebook.archmagi.phases",
    "rulebook.archmagi.view",
    "rulebook.archmagi.rules",
    "rulebook.archmagi.bots",
    "rulebook.archmagi.lookahead",
    "rulebook.agents.mcts",
    "rulebook.core.writes",
    "rulebook.core.rollwrite.encoding",
    "rulebook.merchants_of_magick.encoding",
    "rulebook.ye_olde_magick_shoppe.encoding",
    "rulebook.battle_merchants.encoding",
    "rulebook.pandoria_merchants.encoding",
    "rulebook.pandoria_merchants.tensor",
    "rulebook.archmagi.encoding",
)
SRC = Path(__file__).resolve().parent.parent


def build_dir() -> Path:
    """``build/mypyc`` beside ``src/`` in a source tree; else the user's cache."""
    if (SRC.parent / "pyproject.toml").is_file():
        return SRC.parent / "build" / "mypyc"
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "rulebook" / "mypyc"


BUILD = build_dir()
STAMP = BUILD / "stamp.json"
#: ``0`` forces pure Python; otherwise the compiled modules run when built and current
ENV = "RULEBOOK_COMPILED"
#: the methods of a game state that take a seat first, guarded (not the bots' hot
#: ``legal_actions`` and ``lookahead``, which check the seat themselves)
SEAT_METHODS = (
    "observation",
    "parse_action",
    "explain",
    "announce",
    "score_breakdown",
    "tiebreak",
    "determinize",
)

#: whether this process runs the compiled modules (set by :func:`install`)
active = False
#: why this process runs pure Python although it was not asked to ("" otherwise)
fallback = ""


def source(module: str) -> Path:
    return SRC.joinpath(*module.split(".")).with_suffix(".py")


def fingerprint() -> dict[str, object]:
    """What the compiled files were built from: the interpreter and every source's hash."""
    return {
        "python": f"{sys.implementation.cache_tag} {sysconfig.get_config_var('EXT_SUFFIX')}",
        "sources": {m: hashlib.sha256(source(m).read_bytes()).hexdigest() for m in MODULES},
    }


def _built() -> dict[str, Path] | None:
    """The compiled file of each module (and of mypyc's shared library), if they are current."""
    try:
        stamp = json.loads(STAMP.read_text(encoding="utf-8"))
        if stamp["fingerprint"] != fingerprint():
            return None
        files = {name: BUILD / relative for name, relative in stamp["files"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if not set(MODULES) <= set(files) or not all(f.is_file() for f in files.values()):
        return None
    return files


def why_not() -> str:
    """Why the compiled modules are not current (call when :func:`_built` found none)."""
    try:
        stamp = json.loads(STAMP.read_text(encoding="utf-8"))
    except OSError:
        return "the compiled modules are not built yet"
    except ValueError:
        return f"the compiled modules' stamp {STAMP} cannot be read"
    made = stamp.get("fingerprint", {}) if isinstance(stamp, dict) else {}
    if made.get("python") != fingerprint()["python"]:
        return "the compiled modules were built for another Python"
    if made.get("sources") != fingerprint()["sources"]:
        return "sources changed since the compiled modules were built (make compiled)"
    return "a compiled module is missing (make compiled)"


def _seat_guard(native: Callable[..., Any]) -> Callable[..., Any]:
    """``native`` (a method taking a seat first) as called from Python: a seat that is no
    ``int`` goes through ``State.seat_number`` (so compiled code's ``TypeError`` becomes the
    :class:`IllegalAction` of pure Python), and its range is checked."""

    def method(self: Any, player: Any, *args: Any) -> Any:
        if type(player) is int and 0 <= player < self.setup.players:  # a seat: no more asked
            return native(self, player, *args)
        if type(player) is not int:
            player = self.seat_number(player)
        self.check_seat(player)
        return native(self, player, *args)

    functools.update_wrapper(method, native)
    method.__rulebook_guard__ = native  # type: ignore[attr-defined]
    return method


def guard_seats(module: ModuleType) -> list[str]:
    """Guard the seat-taking methods of every game state class ``module`` defines (see the
    module); the methods guarded, as ``Class.method``."""
    # a module defining a game state has imported the base class (importing it here would
    # be circular while the core's own compiled modules load)
    State = getattr(sys.modules.get("rulebook.core.state"), "State", None)
    guarded: list[str] = []
    if State is None:
        return guarded
    for name, cls in vars(module).items():
        if not (isinstance(cls, type) and issubclass(cls, State)):
            continue
        if cls.__module__ != module.__name__:
            continue
        for method in SEAT_METHODS:
            native = getattr(cls, method, None)  # its own, or inherited from State
            if native is None or hasattr(native, "__rulebook_guard__"):
                continue
            setattr(cls, method, _seat_guard(native))
            guarded.append(f"{name}.{method}")
    return guarded


class _GuardedLoader(ExtensionFileLoader):
    """Loads a compiled module, then guards its game states' seat-taking methods."""

    def exec_module(self, module: ModuleType) -> None:
        super().exec_module(module)
        guard_seats(module)


class _GuardedSource(SourceFileLoader):
    """Loads one of :data:`MODULES` from its ``.py``, then guards it the same way."""

    def exec_module(self, module: ModuleType) -> None:
        super().exec_module(module)
        guard_seats(module)


class _Finder(MetaPathFinder):
    """Finds :data:`MODULES` before the standard finders: in ``build/mypyc/`` when compiled
    (``files``), else their ``.py`` files; either way their game states are guarded."""

    def __init__(self, files: dict[str, Path] | None) -> None:
        self.files = files

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if self.files is not None:
            if fullname not in self.files:  # the modules and mypyc's shared library
                return None
            file = self.files[fullname]
            loader: ExtensionFileLoader | SourceFileLoader = _GuardedLoader(fullname, str(file))
        elif fullname not in MODULES:
            return None
        else:
            file = source(fullname)
            loader = _GuardedSource(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def install() -> bool:
    """Load :data:`MODULES` compiled from now on, unless ``RULEBOOK_COMPILED=0``, if they are
    built and current; whether they will be (if not, :data:`fallback` says why). Called by
    ``rulebook/__init__`` before any of them is imported."""
    global active, fallback
    if any(isinstance(f, _Finder) for f in sys.meta_path):
        return active
    files = None if os.environ.get(ENV) == "0" else _built()
    if files is None and os.environ.get(ENV) != "0":
        fallback = why_not()
    sys.meta_path.insert(0, _Finder(files))
    active = files is not None
    return active


# -- first use -------------------------------------------------------------------------------
LOCK = BUILD.parent / "mypyc-build.lock"
LOG = BUILD.parent / "mypyc-build.log"


def cannot_build() -> str:
    """Why :func:`build` cannot run here ("" if it can): mypyc, a C compiler, a writable
    folder."""
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed (pip install mypy setuptools)"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}) is installed"
    folder = BUILD.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not os.access(folder, os.W_OK):
        return f"{BUILD} cannot be written"
    return ""


def _building() -> bool:
    """Whether a build started by :func:`build_in_background` is still running."""
    try:
        pid = int(LOCK.read_text(encoding="utf-8"))
        os.kill(pid, 0)
    except (OSError, ValueError):
        return False
    return True


def build_in_background() -> str:
    """Start :func:`build` in a process of its own (not while another runs); one line saying
    what happens."""
    if _building():
        return f"the compiled modules are being built in the background (log: {LOG})"
    LOCK.parent.mkdir(parents=True, exist_ok=True)
    with LOG.open("w", encoding="utf-8") as log:
        child = subprocess.Popen(
            [sys.executable, "-m", "rulebook.compiled"],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={**os.environ, ENV: "0"},
        )
    LOCK.write_text(str(child.pid), encoding="utf-8")
    return f"building the compiled modules in the background, a few minutes (log: {LOG})"


def notice() -> str:
    """The one line the command line prints when it runs pure Python without being asked to
    ("" when compiled or asked): why, and what happens about it. Starts the first build."""
    if active or not fallback:
        return ""
    line = f"rulebook: running pure Python, several times slower: {fallback}"
    if fallback == "the compiled modules are not built yet":
        why = cannot_build()
        line += f", and cannot be here: {why}" if why else "; " + build_in_background()
    return line + f" ({ENV}=0 runs pure Python without this line)"


def build(force: bool = False) -> bool:
    """Compile :data:`MODULES` into ``build/mypyc/`` unless they are current; whether it
    compiled. Needs mypyc (the ``dev`` extra) and a C compiler."""
    if not force and _built() is not None:
        print("rulebook.compiled: the compiled modules are current")
        return False
    from mypyc.build import mypycify
    from setuptools import setup

    made = fingerprint()  # what is compiled: a source edited meanwhile leaves it stale
    work = BUILD.parent / "mypyc-work"
    shutil.rmtree(BUILD, ignore_errors=True)
    shutil.rmtree(work, ignore_errors=True)
    here = Path.cwd()
    os.environ["MYPY_CACHE_DIR"] = str(work / "mypy-cache")
    os.chdir(SRC)  # mypyc names the modules by their paths under src
    try:
        paths = [str(source(m).relative_to(SRC)) for m in MODULES]
        extensions = mypycify(paths, opt_level="3", target_dir=str(work / "c"))
        setup(
            name="rulebook-compiled",
            ext_modules=extensions,
            script_args=[
                "--quiet",
                "build_ext",
                "--build-lib",
                str(BUILD),
                "--build-temp",
                str(work / "obj"),
            ],
        )
    finally:
        os.chdir(here)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    files = {
        str(f.relative_to(BUILD))[: -len(suffix)].replace(os.sep, "."): str(f.relative_to(BUILD))
        for f in BUILD.rglob(f"*{suffix}")
    }
    STAMP.write_text(
        json.dumps({"fingerprint": made, "files": files}, indent=1) + "\n", encoding="utf-8"
    )
    shutil.rmtree(work, ignore_errors=True)
    print(f"rulebook.compiled: {len(MODULES)} modules compiled into {BUILD}")
    return True


def _build_once() -> None:
    """``python -m rulebook.compiled``: build unless current (the background build of first
    use), releasing the lock at the end."""
    try:
        build(force="--force" in sys.argv[1:])
    finally:
        if LOCK.is_file() and LOCK.read_text(encoding="utf-8").strip() == str(os.getpid()):
            LOCK.unlink()


if __name__ == "__main__":
    _build_once()
