"""The lab's pages and API: a designer changes a game's data and reads the balance move.

Pages: ``/lab`` (runs, what-ifs, a new run), ``/lab/data/GAME`` (the data as a form: a new
what-if), ``/lab/whatifs/ID`` (its changes, its TOML), ``/lab/runs/ID`` (progress, figures,
plots, the commands that reproduce it, downloads). The pages draw from ``/api/lab/...``.

The lab is for the people who run the server: it answers only when ``Settings.lab`` is on
(``rulebook serve`` turns it on for a server listening on the loopback, or with ``--lab`` and a
key elsewhere: then each page asks for the key once, kept in a cookie of this site only);
otherwise every lab address is 404. Runs are queued here and played by the
:class:`~rulebook.web.lab.supervisor.Supervisor`'s workers; what-ifs are checked by the game's
own validation in a process of their own (:mod:`rulebook.web.lab.check`).
"""

from __future__ import annotations

import asyncio
import hmac
import math
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from multiprocessing import get_context
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Form, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from rulebook.core import RulebookError, UnknownGame, get_game
from rulebook.core.data import DataError
from rulebook.lab import data_form
from rulebook.lab.ladder import LADDER
from rulebook.lab.runs import Knob, RunSpec, whatif_digest
from rulebook.web import seats as seat_kinds
from rulebook.web.errors import BadRequest, Forbidden, NotFound, TooMany
from rulebook.web.lab import check
from rulebook.web.lab.store import FINAL, QUEUED, RESUMABLE, LabStore, Run, WhatIf
from rulebook.web.lab.supervisor import Supervisor
from rulebook.web.settings import Settings

router = APIRouter()
STRICT = ConfigDict(extra="forbid")
#: the cookie holding the lab's key (when the server asks for one)
COOKIE = "rulebook_lab"
#: the agents a seat of a lab run may be (the skill ladder's)
AGENTS = ("random", "greedy", "mcts:200", "mcts:1000", "mcts:3000", "expert")
#: the rungs offered for comparisons and tuning
RUNGS = ("greedy", "random-greedy", "mcts:200-greedy", "mcts:1000-greedy", "expert-greedy")
#: seconds of games an estimate plays
ESTIMATE_SECONDS = 2.0


class Lab:
    """The lab of one server process: its store, its runs' supervisor, the checking process."""

    def __init__(self, settings: Settings, engine: Any, db_url: str) -> None:
        self.settings = settings
        self.store = LabStore(engine)
        self.supervisor = Supervisor(self.store, settings, db_url)
        self._pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        self.supervisor.start()

    async def close(self) -> None:
        await self.supervisor.close()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    async def in_child(self, function: Any, *args: Any) -> Any:
        """``function(*args)`` in the lab's checking process (started at first use)."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(1, mp_context=get_context("spawn"))
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, function, *args)

    async def db(self, function: Any, *args: Any) -> Any:
        return await asyncio.to_thread(function, *args)


def lab_of(request: Request) -> Lab:
    """The lab, when this server has it on and the client holds its key (404 otherwise:
    nothing tells a stranger that there is a lab)."""
    lab: Lab | None = getattr(request.app.state, "lab", None)
    if lab is None:
        raise NotFound("no such page")
    key = lab.settings.lab_key
    if key:
        given = request.cookies.get(COOKIE, "") or request.headers.get("x-lab-key", "")
        if not hmac.compare_digest(given.encode(), key.encode()):
            raise Forbidden("the lab asks for its key: open /lab and give it")
    return lab


def _game(name: str) -> Any:
    try:
        return get_game(name)
    except UnknownGame:
        raise NotFound(f"no game {name!r}") from None


# -- what-ifs -----------------------------------------------------------------------------------
class WhatIfBody(BaseModel):
    model_config = STRICT

    game: str = Field(max_length=64)
    name: str = Field(min_length=1, max_length=120)
    #: the values changed: {Value.ident: the text entered}
    values: dict[Annotated[str, Field(max_length=400)], Annotated[str, Field(max_length=400)]] = (
        Field(max_length=2000)
    )


def whatif_view(w: WhatIf) -> dict[str, Any]:
    changes = [
        {
            "group": value.group,
            "label": value.label,
            "key": value.key(w.game),
            "shipped": value.shown(),
            "now": data_form.shown(value.kind, new),
            "source": value.source,
        }
        for value, new in data_form.changed(w.game, w.override)
    ]
    return {
        "id": w.id,
        "game": w.game,
        "title": get_game(w.game).title,
        "name": w.name,
        "created": w.created,
        "toml": data_form.override_toml(w.override),
        "digest": whatif_digest(w.override),
        "changes": changes,
    }


@router.get("/api/lab/data/{game}")
async def data_values(request: Request, game: str) -> dict[str, Any]:
    lab_of(request)
    found = _game(game)
    return {
        "game": game,
        "title": found.title,
        "values": [
            {
                "id": v.ident,
                "file": v.file,
                "group": v.group,
                "label": v.label,
                "key": v.key(game),
                "value": v.shown(),
                "kind": v.kind,
                "low": v.low,
                "high": v.high,
                "choices": list(v.choices),
                "range": v.range_text(),
                "source": v.source,
                "reason": v.reason,
            }
            for v in data_form.values(game)
        ],
    }


@router.post("/api/lab/whatifs", status_code=201)
async def new_whatif(request: Request) -> dict[str, Any]:
    lab = lab_of(request)
    body: WhatIfBody = await _parse(request, WhatIfBody)
    _game(body.game)
    try:
        override = data_form.override_of(body.game, body.values)
    except DataError as exc:
        raise BadRequest(str(exc)) from None
    if not override:
        raise BadRequest("nothing changed: change at least one value from the shipped data")
    refusal = await lab.in_child(check.validate, body.game, override)
    if refusal:
        raise BadRequest(refusal)
    made = await lab.db(lab.store.add_whatif, body.game, body.name.strip(), override)
    return whatif_view(made)


@router.post("/api/lab/whatifs/preview")
async def preview_whatif(request: Request) -> dict[str, Any]:
    """The TOML the values entered would make (nothing saved, the game's validation aside)."""
    lab_of(request)
    body: WhatIfBody = await _parse(request, WhatIfBody)
    _game(body.game)
    try:
        override = data_form.override_of(body.game, body.values)
    except DataError as exc:
        raise BadRequest(str(exc)) from None
    return {"toml": data_form.override_toml(override) if override else ""}


@router.get("/api/lab/whatifs")
async def list_whatifs(request: Request, game: str | None = None) -> dict[str, Any]:
    lab = lab_of(request)
    found = await lab.db(lab.store.whatifs, game)
    return {"whatifs": [whatif_view(w) for w in found]}


async def _whatif(lab: Lab, whatif_id: str) -> WhatIf:
    found: WhatIf | None = await lab.db(lab.store.whatif, whatif_id[:16])
    if found is None:
        raise NotFound("no such what-if")
    return found


@router.get("/api/lab/whatifs/{whatif_id}")
async def get_whatif(request: Request, whatif_id: str) -> dict[str, Any]:
    lab = lab_of(request)
    return whatif_view(await _whatif(lab, whatif_id))


@router.get("/lab/whatifs/{whatif_id}.toml")
async def whatif_toml(request: Request, whatif_id: str) -> Response:
    lab = lab_of(request)
    w = await _whatif(lab, whatif_id)
    name = f"{w.game}-{w.id}.toml"
    return Response(
        data_form.override_toml(w.override),
        media_type="application/toml",
        headers={"content-disposition": f'attachment; filename="{name}"'},
    )


# -- runs ---------------------------------------------------------------------------------------
class KnobBody(BaseModel):
    model_config = STRICT

    key: str = Field(max_length=400)  #: a data value's ident (the form's)
    low: float | None = None
    high: float | None = None
    step: float | None = None


class RunBody(BaseModel):
    model_config = STRICT

    kind: Literal["simulate", "compare", "tune"]
    game: str = Field(max_length=64)
    players: int = Field(ge=1, le=16)
    variant: str | None = Field(default=None, max_length=64)
    options: dict[Annotated[str, Field(max_length=32)], Annotated[str, Field(max_length=64)]] = (
        Field(default_factory=dict, max_length=8)
    )
    seats: list[Annotated[str, Field(max_length=32)]] = Field(default_factory=list, max_length=16)
    rungs: list[Annotated[str, Field(max_length=64)]] = Field(default_factory=list, max_length=6)
    games: int = Field(ge=1)
    seed: int = Field(default=0, ge=0, le=2**53)
    whatif: str = Field(default="", max_length=16)
    title: str = Field(default="", max_length=200)
    knobs: list[KnobBody] = Field(default_factory=list, max_length=8)
    target: str = Field(default="", max_length=300)
    minutes: float = Field(default=0.0, ge=0.0, le=24 * 60)


async def _parse(request: Request, model: type[BaseModel]) -> Any:
    from rulebook.web.api import parse

    return await parse(request, model)


def _knobs(game: str, body: RunBody) -> tuple[Knob, ...]:
    """The tuning run's knobs: values of the form, each with a range."""
    known = {v.ident: v for v in data_form.values(game)}
    knobs = []
    for k in body.knobs:
        value = known.get(k.key)
        if value is None:
            raise BadRequest(f"{get_game(game).title} has no data value {k.key}")
        if value.kind not in ("int", "float"):
            raise BadRequest(f"{value.group}, {value.label}: only numbers can be tuned")
        where = f"{value.group}, {value.label}"
        if k.low is None or k.high is None or not k.low < k.high:
            raise BadRequest(f"{where}: give a range, lowest below highest")
        low, high, step = k.low, k.high, k.step
        if value.kind == "int":
            if any(b is not None and not float(b).is_integer() for b in (low, high, step)):
                raise BadRequest(f"{where} is a whole number: its range and step must be too")
            low, high = int(low), int(high)
            step = None if step is None else int(step)
        knobs.append(Knob(value.key(game), low, high, step))
    return tuple(knobs)


async def spec_of(lab: Lab, body: RunBody) -> tuple[RunSpec, str, WhatIf | None]:
    """The run asked for, checked: its spec, its title, its what-if."""
    found = _game(body.game)
    settings = lab.settings
    if body.games > settings.lab_max_games:
        raise BadRequest(f"a run plays at most {settings.lab_max_games} games per job")
    whatif = await _whatif(lab, body.whatif) if body.whatif else None
    if whatif is not None and whatif.game != body.game:
        raise BadRequest(f"the what-if {whatif.name!r} changes {whatif.game}, not {body.game}")
    offered = seat_kinds.outside()
    for agent in body.seats:
        if agent not in AGENTS and agent not in offered:
            raise BadRequest(f"no agent {agent!r}: {', '.join([*AGENTS, *offered])}")
    knobs = _knobs(body.game, body) if body.kind == "tune" else ()
    spec = RunSpec(
        body.kind,
        body.game,
        body.players,
        body.games,
        body.seed,
        body.variant or None,
        dict(body.options),
        tuple(offered.get(agent, agent) for agent in body.seats),
        tuple(body.rungs),
        whatif.override if whatif is not None else None,
        whatif.name if whatif is not None else "",
        knobs,
        body.target.strip(),
    )
    try:
        spec.check()
    except (RulebookError, DataError, ValueError) as exc:
        raise BadRequest(str(exc)) from None
    if body.kind == "tune":
        spec = await tune_budget(lab, spec, body.minutes)
    title = body.title.strip() or default_title(spec, found.title)
    return spec, title, whatif


def default_title(spec: RunSpec, title: str) -> str:
    data = f" on {spec.whatif_name!r}" if spec.whatif else ""
    if spec.kind == "simulate":
        return f"{title}, {spec.players} players: {', '.join(spec.seats)}{data}"
    if spec.kind == "compare":
        return f"{title}, {spec.players} players: {spec.whatif_name!r} against the shipped data"
    return f"{title}, {spec.players} players: tune {len(spec.knobs)} values for {spec.target}"


async def tune_budget(lab: Lab, spec: RunSpec, minutes: float) -> RunSpec:
    """A tuning run's games from its budget in minutes: what the machine plays in that time
    (measured on the run's first games), shared between the search (half), the held-out
    selection and the confirmation on fresh games."""
    if minutes <= 0:
        raise BadRequest("give the tuning run a budget in minutes")
    seconds = await lab.in_child(check.seconds_per_game, {**spec.to_dict(), "games": 1}, 1.0)
    cores = max(1, lab.settings.lab_workers)
    games = int(minutes * 60 * cores / max(seconds, 1e-6))
    rungs = len(spec.rungs)
    trial = max(20, min(200, games // 40))
    budget = max(trial, games // 2)
    confirm = max(trial, games // (4 * 2 * rungs))
    select = max(trial, games // (4 * 2 * rungs))
    return replace(
        spec, budget=budget, trial_games=trial, confirm=confirm, select=select, games=trial
    )


def run_view(run: Run, lab: Lab, whole: bool = True) -> dict[str, Any]:
    spec = RunSpec.from_dict(run.spec)
    folder = Path(lab.settings.lab_dir) / run.id
    elapsed = (run.finished or time.time()) - run.started if run.started else 0.0
    rate = float(run.progress.get("rate") or 0.0)
    left = (run.total - run.done) / rate if rate > 0 and not run.final else None
    view: dict[str, Any] = {
        "id": run.id,
        "kind": run.kind,
        "game": run.game,
        "title": run.title,
        "status": run.status,
        "created": run.created,
        "started": run.started,
        "finished": run.finished,
        "total": run.total,
        "done": run.done,
        "elapsed": elapsed,
        "left": left,
        "error": run.error,
        "whatif_id": run.whatif_id,
        "proposed_id": run.proposed_id,
        "players": spec.players,
        "variant": spec.variant,
        "seats": list(spec.seats),
        "rungs": list(spec.rungs),
        "games": spec.games,
        "seed": spec.seed,
        "data": whatif_digest(spec.whatif) or "shipped",
        "whatif_name": spec.whatif_name,
    }
    if whole:
        view["progress"] = run.progress
        view["figures"] = run.figures
        view["commands"] = spec.commands(folder)
        plots = folder / "plots"
        view["plots"] = sorted(p.stem for p in plots.glob("*.png")) if plots.is_dir() else []
        view["reports"] = sorted(p.name for p in folder.glob("report*.html"))
        view["files"] = sorted(
            str(p.relative_to(folder)) for p in folder.rglob("*.parquet") if ".parts" not in str(p)
        )
    return view


@router.post("/api/lab/runs", status_code=201)
async def new_run(request: Request) -> dict[str, Any]:
    lab = lab_of(request)
    body: RunBody = await _parse(request, RunBody)
    spec, title, whatif = await spec_of(lab, body)
    waiting = [r for r in await lab.db(lab.store.active) if r.status == QUEUED]
    if len(waiting) >= lab.settings.lab_queue:
        raise TooMany(f"{len(waiting)} runs are waiting already: wait for them, or cancel one")
    made = await lab.db(
        lab.store.add_run,
        spec.kind,
        spec.game,
        title,
        spec.to_dict(),
        spec.total_games(),
        whatif.id if whatif is not None else "",
    )
    lab.supervisor.poke()
    return run_view(made, lab)


@router.post("/api/lab/estimate")
async def estimate(request: Request) -> dict[str, Any]:
    """How long a run would take: its first games played for a moment, timed (a tuning
    run: its budget in minutes, as asked)."""
    lab = lab_of(request)
    body: RunBody = await _parse(request, RunBody)
    if body.kind == "tune":
        return {"seconds": body.minutes * 60}
    spec, _, _ = await spec_of(lab, body)
    try:
        per_game = await lab.in_child(check.seconds_per_game, spec.to_dict(), ESTIMATE_SECONDS)
    except (RulebookError, DataError, ValueError) as exc:
        raise BadRequest(str(exc)) from None
    cores = max(1, lab.settings.lab_workers)
    total = spec.total_games()
    return {"per_game": per_game, "games": total, "seconds": math.ceil(total * per_game / cores)}


@router.get("/api/lab/runs")
async def list_runs(request: Request) -> dict[str, Any]:
    lab = lab_of(request)
    found = await lab.db(lab.store.runs)
    return {"runs": [run_view(r, lab, whole=False) for r in found]}


async def _run(lab: Lab, run_id: str) -> Run:
    found: Run | None = await lab.db(lab.store.run, run_id[:16])
    if found is None:
        raise NotFound("no such run")
    return found


@router.get("/api/lab/runs/{run_id}")
async def get_run(request: Request, run_id: str) -> dict[str, Any]:
    lab = lab_of(request)
    return run_view(await _run(lab, run_id), lab)


@router.post("/api/lab/runs/{run_id}/cancel")
async def cancel_run(request: Request, run_id: str) -> dict[str, Any]:
    lab = lab_of(request)
    run = await _run(lab, run_id)
    if run.final:
        raise BadRequest(f"the run is {run.status} already")
    found = await lab.db(lab.store.cancel_run, run.id)
    lab.supervisor.poke()
    return run_view(found, lab)


@router.post("/api/lab/runs/{run_id}/resume")
async def resume_run(request: Request, run_id: str) -> dict[str, Any]:
    lab = lab_of(request)
    run = await _run(lab, run_id)
    if run.status not in RESUMABLE:
        raise BadRequest(
            f"only a stopped, failed or cancelled run resumes; this one is {run.status}"
        )
    found = await lab.db(lab.store.resume, run.id)
    lab.supervisor.poke()
    return run_view(found, lab)


def _file(lab: Lab, run: Run, name: str, suffix: str) -> Path:
    """A file of a run's folder, by a name the run lists (nothing outside the folder)."""
    folder = (Path(lab.settings.lab_dir) / run.id).resolve()
    path = (folder / name).resolve()
    if path.suffix != suffix or folder not in path.parents or not path.is_file():
        raise NotFound("no such file in this run")
    return path


@router.get("/lab/runs/{run_id}/plots/{name}.png")
async def run_plot(request: Request, run_id: str, name: str) -> FileResponse:
    lab = lab_of(request)
    run = await _run(lab, run_id)
    return FileResponse(_file(lab, run, f"plots/{name}.png", ".png"), media_type="image/png")


@router.get("/lab/runs/{run_id}/files/{name:path}")
async def run_file(request: Request, run_id: str, name: str) -> FileResponse:
    lab = lab_of(request)
    run = await _run(lab, run_id)
    suffix = Path(name).suffix
    if suffix not in (".html", ".parquet", ".toml", ".json"):
        raise NotFound("no such file in this run")
    path = _file(lab, run, name, suffix)
    kind = {".html": "text/html", ".parquet": "application/octet-stream"}.get(suffix, "text/plain")
    return FileResponse(path, media_type=kind, filename=f"{run.id}-{path.name}")


# -- pages --------------------------------------------------------------------------------------
def _page(request: Request, name: str, **context: Any) -> HTMLResponse:
    from rulebook.web.pages import render

    return render(request, name, **context)


def games_catalogue() -> dict[str, Any]:
    from rulebook.web.catalogue import catalogue

    return {
        "games": catalogue(),
        "agents": [*AGENTS, *seat_kinds.outside()],
        "rungs": list(RUNGS),
        "ladder": list(LADDER),
    }


@router.get("/lab", response_class=HTMLResponse)
async def lab_page(request: Request) -> Response:
    lab: Lab | None = getattr(request.app.state, "lab", None)
    if lab is None:
        raise NotFound("no such page")
    if lab.settings.lab_key:
        given = request.cookies.get(COOKIE, "")
        if not hmac.compare_digest(given.encode(), lab.settings.lab_key.encode()):
            return _page(request, "lab_key.html")
    return _page(request, "lab.html", data=games_catalogue())


@router.post("/lab/key", response_class=HTMLResponse)
async def lab_key(request: Request, key: Annotated[str, Form(max_length=200)] = "") -> Response:
    lab: Lab | None = getattr(request.app.state, "lab", None)
    if lab is None:
        raise NotFound("no such page")
    if not lab.settings.lab_key or not hmac.compare_digest(
        key.encode(), lab.settings.lab_key.encode()
    ):
        return _page(request, "lab_key.html", error="that is not the lab's key")
    response = RedirectResponse("/lab", status_code=303)
    response.set_cookie(COOKIE, key, httponly=True, samesite="strict", path="/")
    return response


@router.get("/lab/data/{game}", response_class=HTMLResponse)
async def data_page(request: Request, game: str) -> HTMLResponse:
    lab_of(request)
    found = _game(game)
    return _page(request, "lab_data.html", game=game, title=found.title)


@router.get("/lab/whatifs/{whatif_id}", response_class=HTMLResponse)
async def whatif_page(request: Request, whatif_id: str) -> HTMLResponse:
    lab = lab_of(request)
    w = await _whatif(lab, whatif_id)
    return _page(request, "lab_whatif.html", whatif=whatif_view(w))


@router.get("/lab/runs/{run_id}", response_class=HTMLResponse)
async def run_page(request: Request, run_id: str) -> HTMLResponse:
    lab = lab_of(request)
    run = await _run(lab, run_id)
    return _page(request, "lab_run.html", run=run_view(run, lab, whole=False), final=list(FINAL))


__all__ = ["Lab", "router"]
