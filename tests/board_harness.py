"""A harness for the games' board views (tests and ``benchmarks/board_gallery.py``).

It builds the ``view`` payload of the board contract (docs/boards.md) from real games at
chosen positions and renders a board module in Debian's chromium through Playwright, without
the web app: requests to ``http://board.test/`` are answered from Python (the harness page,
the board files through :func:`rulebook.core.boardkit.board_file`, each view), and the
page's ``ctx.move`` applies the move to the game in Python and redraws. Views are built by
the web app's own payload builder (``rulebook.web.views``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import rulebook
from rulebook.core import State, get_game
from rulebook.core.boardkit import board_file, board_static
from rulebook.web import views

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ORIGIN = "http://board.test"


@dataclass
class Table:
    """A game at the harness: its state, who sits where (``seat``: the viewer, None for a
    spectator), the stored log."""

    state: State
    seat: int | None
    labels: list[str]
    log: list[views.Entry] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)

    def apply(self, player: int, text: str) -> None:
        action = self.state.parse_action(player, text)
        self.log.append(views.entry(self.state, player, action))
        self.state.apply(player, action)
        if player == self.seat:
            self.moves.append(text)

    def view(self) -> dict[str, Any]:
        """The web app's payload for ``seat`` (``rulebook.web.views``), static data included."""
        payload = views.view(self.state, self.seat, self.log, self.labels)
        payload["static"] = board_static(get_game(self.state.setup.game), self.state.setup)
        return payload

    def play_others(self, rng: random.Random) -> None:
        """Let every other seat move (randomly) until ``seat`` is to act or the game ends."""
        state = self.state
        while not state.is_terminal() and self.seat not in state.current_players():
            p = state.current_players()[0]
            self.apply(p, str(rng.choice(state.legal_actions(p))))


def table(
    game: str,
    players: int,
    seed: int = 1,
    variant: str | None = None,
    options: dict[str, str] | None = None,
    seat: int = 0,
) -> Table:
    state = rulebook.new_game(game, players=players, seed=seed, variant=variant, options=options)
    labels = ["human" if p == seat else "greedy" for p in range(players)]
    return Table(state, seat, labels)


def advance(t: Table, steps: int, rng: random.Random, until: Callable[[State], bool] | None = None):
    """Play ``steps`` random moves by any seat (or until ``until(state)``), then let the others
    move until the viewer is to act."""
    state = t.state
    for _ in range(steps):
        if state.is_terminal() or (until is not None and until(state)):
            break
        p = state.current_players()[0]
        t.apply(p, str(rng.choice(state.legal_actions(p))))
    t.play_others(rng)
    return t


HARNESS_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>board harness</title>
<link rel="stylesheet" href="/boards/GAME/board.css">
<style>
  body { margin: 0; font-family: system-ui, sans-serif; background: #f4efe4; color: #222; }
  main { padding: 8px; max-width: 1400px; margin: auto; }
  #moves { display: flex; flex-wrap: wrap; gap: 4px; margin-top: 8px; }
  #moves button, #offer button { font: inherit; font-size: 13px; }
  #offer { position: fixed; left: 8px; bottom: 8px; background: #fff; border: 2px solid #333;
           padding: 8px; display: none; flex-direction: column; gap: 4px; z-index: 10; }
  #offer.open { display: flex; }
  #error { color: #a00; }
</style></head>
<body><main>
<div id="board"></div>
<div id="error" role="alert"></div>
<div id="offer" role="menu" aria-label="choose a move"></div>
<details><summary>Legal moves</summary><div id="moves"></div></details>
<div id="announce" aria-live="polite" class="visually-hidden"></div>
</main>
<script type="module">
import { render } from "/boards/GAME/board.js";
const root = document.getElementById("board");
const offer = document.getElementById("offer");
let view = null;
const ctx = {
  async move(text) {
    offer.classList.remove("open");
    const legal = view.legal.map((m) => m.text);
    if (!legal.includes(text)) throw new Error("board sent a move that is not legal: " + text);
    window.__sent = (window.__sent || []).concat([text]);
    const answer = await window.pyMove(text);
    if (answer.error) { document.getElementById("error").textContent = answer.error; return; }
    show(answer.view);
  },
  offer(texts) {
    offer.replaceChildren(...texts.map((t) => {
      const m = view.legal.find((x) => x.text === t);
      const b = document.createElement("button");
      b.textContent = m ? m.explain : t;
      b.setAttribute("role", "menuitem");
      b.onclick = () => ctx.move(t);
      return b;
    }));
    window.__offered = texts;
    offer.classList.add("open");
    offer.querySelector("button").focus();
  },
  announce(message) { document.getElementById("announce").textContent = message; },
};
function show(v) {
  view = v;
  render(root, view, ctx);
  document.getElementById("moves").replaceChildren(...view.legal.map((m) => {
    const b = document.createElement("button");
    b.textContent = m.explain;
    b.onclick = () => ctx.move(m.text);
    return b;
  }));
  window.__version = view.version;
}
window.__show = show;
show(await window.pyView());
window.__ready = true;
</script></body></html>
"""


class Harness:
    """One chromium for many boards: :meth:`open` shows a table and keeps it playable."""

    def __init__(self) -> None:
        from playwright.sync_api import sync_playwright

        self._pw = sync_playwright().start()
        self.browser = self._pw.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )

    def close(self) -> None:
        self.browser.close()
        self._pw.stop()

    def open(self, t: Table, width: int = 1280, height: int = 900, touch: bool = False) -> Any:
        """A page showing ``t`` for its seat; moves made on the page are applied to ``t``.
        ``touch``: a phone's touch screen (taps) instead of a mouse."""
        game = get_game(t.state.setup.game)
        page = self.browser.new_page(
            viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch
        )
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.errors = errors  # type: ignore[attr-defined]

        def serve(route: Any) -> None:
            path = route.request.url[len(ORIGIN) :].split("?")[0]
            if path == "/":
                body = HARNESS_PAGE.replace("GAME", game.name)
                route.fulfill(status=200, content_type="text/html", body=body)
                return
            prefix = f"/boards/{game.name}/"
            found = board_file(game, path[len(prefix) :]) if path.startswith(prefix) else None
            if found is None:
                route.fulfill(status=404, body="not found")
            else:
                route.fulfill(status=200, content_type=found[1], body=found[0])

        def py_move(text: str) -> dict[str, Any]:
            try:
                t.apply(t.seat, text)
            except rulebook.IllegalAction as e:
                return {"error": str(e)}
            t.play_others(random.Random(len(t.state.history)))
            return {"view": json.loads(json.dumps(t.view()))}

        page.route(f"{ORIGIN}/**", serve)
        page.expose_function("pyMove", py_move)
        page.expose_function("pyView", lambda: json.loads(json.dumps(t.view())))
        page.goto(f"{ORIGIN}/")
        try:
            page.wait_for_function("window.__ready === true", timeout=15_000)
        except Exception as e:
            page.close()
            raise RuntimeError(f"the board did not draw: {errors}") from e
        return page


@contextmanager
def harness() -> Iterator[Harness]:
    h = Harness()
    try:
        yield h
    finally:
        h.close()
