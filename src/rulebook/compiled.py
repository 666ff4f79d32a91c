"""The hot modules compiled with mypyc, for runs that ask for them; Python otherwise.

``make compiled`` (``make test``, ``make bench`` and ``make same-games`` run it; a no-op when
nothing changed) compiles :data:`MODULES` with mypyc into ``build/mypyc/`` beside ``src/``,
with a stamp naming the interpreter and each source's SHA-256. When ``rulebook`` is imported
with ``RULEBOOK_COMPILED=1`` in the environment, :func:`install` checks the stamp: if it
matches (same interpreter, every source unchanged since it was compiled), a finder loads those
modules from their compiled files; otherwise, and without ``RULEBOOK_COMPILED=1``, every module
is imported from its ``.py`` as usual. So a compiled file never stands in for a source edited
since (the next ``make compiled`` builds it again). Both give the very same games
(``tests/test_compiled.py``).

Pure Python is the default because compiled functions check their arguments' declared types
at the call: a seat given as text, say, raises ``TypeError`` there instead of the engine's
:class:`~rulebook.core.errors.IllegalAction`. Runs that play many games from code (``make
bench``, ``make same-games``, simulations and the lab with ``RULEBOOK_COMPILED=1``) gain the
speed; the players' front ends keep their clear errors.

The modules are the sheet games' rules and evaluation, the sheet engine, the policies and the
search: what the bots spend their time in; and Battle Merchants' moves, rules, evaluation and
lookahead, Pandoria Merchants' map, rules, evaluation and lookahead, and Archmagi's rules,
cards (``archmagi.symbols``), evaluation and greedy lookahead. Not :mod:`rulebook.core.chance`:
its scripted generator derives from ``random.Random``, which a compiled class cannot (the
interpreter crashed seeding it); the draws of its shuffles and rolls are in
:mod:`rulebook.core.draws`, which is compiled. Every other module, and every other game, is
Python either way (their moves derive from :class:`rulebook.core.action.Action`, compiled to
allow that).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import sysconfig
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ExtensionFileLoader, ModuleSpec
from importlib.util import spec_from_file_location
from pathlib import Path
from types import ModuleType

#: the modules compiled, in dependency order
MODULES = (
    "rulebook.core.action",
    "rulebook.core.draws",
    "rulebook.core.sheet",
    "rulebook.core.policy",
    "rulebook.core.rollwrite.engine",
    "rulebook.core.rollwrite.bots",
    "rulebook.merchants_of_magick.rules",
    "rulebook.merchants_of_magick.bots",
    "rulebook.ye_olde_magick_shoppe.rules",
    "rulebook.ye_olde_magick_shoppe.bots",
    "rulebook.battle_merchants.actions",
    "rulebook.battle_merchants.rules",
    "rulebook.battle_merchants.bots",
    "rulebook.battle_merchants.lookahead",
    "rulebook.pandoria_merchants.board",
    "rulebook.pandoria_merchants.terms",
    "rulebook.pandoria_merchants.moves",
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
    "rulebook.archmagi.rules",
    "rulebook.archmagi.bots",
    "rulebook.archmagi.lookahead",
    "rulebook.agents.mcts",
)
SRC = Path(__file__).resolve().parent.parent
BUILD = SRC.parent / "build" / "mypyc"
STAMP = BUILD / "stamp.json"
#: set to ``1`` to run the compiled modules (when built and current)
ENV = "RULEBOOK_COMPILED"

#: whether this process runs the compiled modules (set by :func:`install`)
active = False


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


class _CompiledFinder(MetaPathFinder):
    """Finds the compiled modules in ``build/mypyc/`` before the ``.py`` files."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        return spec_from_file_location(
            fullname, file, loader=ExtensionFileLoader(fullname, str(file))
        )


def install() -> bool:
    """Load :data:`MODULES` compiled from now on, if ``RULEBOOK_COMPILED`` is ``1`` and they
    are built and current; whether they will be. Called by ``rulebook/__init__`` before any of
    them is imported."""
    global active
    if active or os.environ.get(ENV) != "1":
        return active
    files = _built()
    if files is None:
        return False
    sys.meta_path.insert(0, _CompiledFinder(files))
    active = True
    return True


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


if __name__ == "__main__":
    build(force="--force" in sys.argv[1:])
