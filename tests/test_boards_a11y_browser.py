"""The boards' accessibility (issue 38) in the real page, in Debian's chromium, at 1280x800
and on a 390x844 touch phone, inside ``#board`` only (the page around it has its own test):

- axe-core finds no serious or critical violation in the board (and its tip) of every game and
  variant: at the start, mid-game with a tip and a menu open, and on a finished game;
- the text drawn on the boards' SVGs meets WCAG AA contrast (axe reads HTML text only);
- a tip opened by a tap, a long press or a click sits beside its part, never over it, and the
  next tap elsewhere (or a move, or Escape) closes it, so the next place can be tapped;
- on a phone every place and every part that explains itself is at least 24 x 24 CSS px
  (WCAG 2.2 target size) and its board's frame pans to it, the page never sideways;
- one whole game of every game is played with the keyboard alone (Tab, Shift+Tab, the arrows,
  Enter, Space), from the first move to the end screen, the focus always seen.

One server and one browser serve the module (``xdist_group``: one worker runs it).
"""

from __future__ import annotations

import random
import shutil
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

import rulebook
from boardpages import CHROMIUM, click_places, served, version, wait_for_version, wait_until
from webserver import Server

playwright_api = pytest.importorskip("playwright.sync_api")
PlaywrightError = playwright_api.Error
axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")

pytestmark = [
    pytest.mark.xdist_group("boards-a11y"),
    pytest.mark.skipif(
        shutil.which(CHROMIUM) is None, reason="no chromium (make test installs it)"
    ),
]

DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
}

#: (game, variant, seats, options): every game and variant axe looks at
CONFIGS = [
    ("merchants-of-magick", "standard", ["human", "greedy"], {}),
    ("ye-olde-magick-shoppe", "solo", ["human"], {}),
    ("battle-merchants", "standard", ["human", "greedy"], {}),
    ("battle-merchants", "standard", ["human", "greedy", "greedy"], {}),
    ("pandoria-merchants", "standard", ["human", "greedy"], {}),
    ("pandoria-merchants", "family", ["human", "greedy"], {}),
    ("pandoria-merchants", "solo", ["human"], {"level": "expert"}),
    ("archmagi", "standard", ["human", "greedy"], {"magi": "fire,water"}),
]
IDS = [f"{g}-{v}-{len(s)}p" for g, v, s, _ in CONFIGS]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with served(tmp_path_factory.mktemp("boards-a11y")) as running:
        yield running


class Opened:
    """A browser context (desktop or phone) and its page, collecting the page's errors."""

    def __init__(self, browser: Any, phone: bool) -> None:
        self.phone = phone
        self.context = browser.new_context(**(PHONE if phone else DESKTOP))
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)

    def open(self, url: str) -> Any:
        self.page.goto(url)
        self.page.wait_for_selector("#game[data-live='yes']")
        self.page.wait_for_selector("#board .rb-turn")
        return self.page

    def close(self) -> None:
        self.context.close()
        assert self.errors == [], self.errors


#: the seed of every game these tests open: the board a test meets after its moves is the same
#: at every run (a new game's seed would be drawn at random)
SEED = 11


def create(server: Server, game: str, variant: str, seats: list[str], options: Any) -> Any:
    """A new game of seed :data:`SEED` with these seats, uploaded as its save file."""
    state = rulebook.new_game(game, len(seats), SEED, variant, options)
    r = httpx.post(
        server.url + "/api/games/upload",
        files={"file": ("game.json", rulebook.save_text(state))},
        data={"seats": ",".join(seats)},
        timeout=30,
    )
    assert r.status_code == 201, r.text
    return r.json()


def finished(server: Server, game: str, variant: str, seats: list[str], options: Any) -> Any:
    """A game played to its end by random bots, uploaded with a person in seat 1."""
    from rulebook.agents import make_agent
    from rulebook.simulate import play

    state = rulebook.new_game(game, len(seats), SEED, variant, options)
    state = play(state, [make_agent("random", p) for p in range(len(seats))])
    assert state.is_terminal()
    r = httpx.post(
        server.url + "/api/games/upload",
        files={"file": ("game.json", rulebook.save_text(state))},
        data={"seats": ",".join(["human"] + ["random"] * (len(seats) - 1))},
        timeout=30,
    )
    assert r.status_code == 201, r.text
    return r.json()


# -- axe ------------------------------------------------------------------------------------------
#: axe-core as the library bundles it, put in each page once
AXE_SCRIPT = axe_sync.Axe().axe_script


def axe_problems(page: Any, contrast: bool = True) -> list[str]:
    """axe-core's serious and critical violations inside the board and its tip (all of axe's
    rules; the colour contrast, its slowest, where ``contrast``). The style sheets are not
    fetched again (``preload``: axe would ask for board.css's @import from the page's own
    address, a 404)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT)
    include = [["#board"], ["#rb-tip"]] if page.locator("#rb-tip").count() else [["#board"]]
    options: dict[str, Any] = {"resultTypes": ["violations"], "preload": False}
    if not contrast:
        options["rules"] = {"color-contrast": {"enabled": False}}
    results = page.evaluate(
        "([include, options]) => axe.run({include}, options)", [include, options]
    )
    return [
        f"{v['id']} ({v['impact']}): {node['html'][:160]}"
        for v in results["violations"]
        if v["impact"] in ("serious", "critical")
        for node in v["nodes"]
    ]


#: the text drawn in the boards' SVGs below WCAG AA contrast (4.5:1, 3:1 from 24 px or 18.66 px
#: bold as drawn) against what is painted under it: the last shape before it, in paint order,
#: whose fill holds its middle (its own halo if it has one: a stroke painted first), over the
#: page's background; opacities of the text, the shape and their groups blended in. (axe-core
#: reads the contrast of HTML text only.)
SVG_CONTRAST = """() => {
  const rgba = (c) => {
    const m = /rgba?\\(([^)]+)\\)/.exec(c || "");
    if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const lum = ([r, g, b]) => {
    const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const over = (top, alpha, under) =>
    top.map((v, i) => (i < 3 ? v * alpha + under[i] * (1 - alpha) : 1));
  const opacity = (n, stop) => {
    let o = 1;
    for (let a = n; a && a !== stop; a = a.parentElement) o *= Number(getComputedStyle(a).opacity);
    return o;
  };
  const page = (n) => {  // the HTML backgrounds under a drawing, blended
    const layers = [];
    for (let a = n; a; a = a.parentElement) {
      const c = rgba(getComputedStyle(a).backgroundColor);
      if (c && c[3] > 0) layers.push(c);
      if (c && c[3] >= 1) break;
    }
    return layers.reverse().reduce((under, c) => over(c, c[3], under), [255, 255, 255, 1]);
  };
  const problems = [];
  for (const svg of document.querySelectorAll("#board svg")) {
    if (svg.parentElement.closest("svg")) continue;
    const all = [...svg.querySelectorAll("text, rect, circle, ellipse, polygon, path")];
    const boxes = new Map(all.map((n) => [n, n.getBoundingClientRect()]));
    const base = page(svg);
    all.forEach((t, i) => {
      const s = getComputedStyle(t);
      const r = boxes.get(t);
      if (t.tagName !== "text" || !r.width || !r.height || !t.textContent.trim()) return;
      if (s.visibility !== "visible" || s.display === "none") return;
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      const halo = rgba(s.stroke);
      const haloed = halo && s.paintOrder.startsWith("stroke") && parseFloat(s.strokeWidth) >= 2;
      let back = haloed ? halo : null;
      for (let k = i - 1; k >= 0 && !back; k -= 1) {
        const n = all[k];
        const b = boxes.get(n);
        if (n.tagName === "text") continue;
        if (x < b.left || x > b.right || y < b.top || y > b.bottom) continue;
        const cs = getComputedStyle(n);
        const fill = rgba(cs.fill);
        const alpha = fill ? fill[3] * Number(cs.fillOpacity) * opacity(n, svg) : 0;
        if (!alpha || cs.visibility !== "visible") continue;
        const at = new DOMPoint(x, y).matrixTransform(n.getScreenCTM().inverse());
        if (!n.isPointInFill(at)) continue;
        back = over(fill, alpha, base);
      }
      back = back || base;
      const fill = rgba(s.fill);
      if (!fill) return;
      const front = over(fill, fill[3] * Number(s.fillOpacity) * opacity(t, svg), back);
      const px = parseFloat(s.fontSize) * t.getScreenCTM().a;
      const need = px >= 24 || (Number(s.fontWeight) >= 700 && px >= 18.66) ? 3 : 4.5;
      const got = ratio(front, back);
      const what = t.getAttribute("class") || t.parentElement.getAttribute("class");
      const said = `${what} "${t.textContent.trim()}": ${got.toFixed(2)} < ${need}`;
      if (got < need) problems.push(said);
    });
  }
  return [...new Set(problems)];
}"""


def svg_contrast(page: Any) -> list[str]:
    found: list[str] = page.evaluate(SVG_CONTRAST)
    return found


def tip_shown(page: Any) -> bool:
    return bool(page.locator("#rb-tip").count() and page.locator("#rb-tip").is_visible())


#: the board's parts that explain themselves and act on no tap (a tap shows their tip)
PARTS = (
    "#board [data-explain]:not(.rb-place, .rb-control)"
    ":not(:has(.rb-place, .rb-control)):not([data-rove])"
)


def mark_board(page: Any) -> None:
    """Mark the board's drawing, to tell later whether it was redrawn (``board_unchanged``)."""
    page.evaluate("() => document.querySelector('#board > *').setAttribute('data-seen', '')")


def board_unchanged(page: Any) -> bool:
    """Whether the board drawing marked last is still the one shown."""
    seen = "() => document.querySelector('#board > *').hasAttribute('data-seen')"
    return bool(page.evaluate(seen))


def settled(page: Any) -> None:
    """Wait until the bots are done and it is the viewer's move (or the game is over): the
    board stays as it is until the viewer acts."""
    wait_until(
        page,
        "(document.querySelector('#moves button.move') !== null"
        " && document.querySelector('#board .rb-turn.rb-you') !== null"
        " && !/also deciding/.test(document.querySelector('#board .rb-turn').textContent))"
        " || document.querySelector('#board .rb-over') !== null",
    )
    # and no view still on its way redraws the board (a redraw closes a tip; the seats'
    # presence comes a moment after a move): 0.45 s with the same drawing
    for _ in range(12):
        mark_board(page)
        page.wait_for_timeout(450)
        if board_unchanged(page):
            return
    raise AssertionError("the board keeps being redrawn")


def open_a_tip(page: Any, phone: bool) -> None:
    """Show one part's tip as a person would: a tap (phone) or the mouse (desktop)."""
    settled(page)
    for _ in range(3):  # a redraw may replace the part meanwhile: the new one is tried
        part = page.locator(PARTS).nth(2)
        part.scroll_into_view_if_needed()
        page.wait_for_timeout(50)  # the scroll's event passes (it closes tips)
        if phone:
            part.tap()
        else:
            part.hover()
        if tip_shown(page):
            return
    raise AssertionError(f"no tip shown: {part.evaluate('n => n.outerHTML.slice(0, 200)')}")


def phone_targets(page: Any) -> list[str]:
    """What a finger cannot tap on a phone: a place or a part smaller than 24 x 24 CSS px, a
    place a scroll does not bring whole and uncovered on the screen, a page wider than it."""
    for _ in range(3):  # a board redrawn while it was measured (a late view) is measured again
        # no tip open: the emulated phone's clicks are a mouse's, whose pointer, left over a
        # place a redraw replaced, may show that place's tip (a finger's tap leaves none)
        page.mouse.move(0, 0)
        page.keyboard.press("Escape")
        page.wait_for_function("document.querySelector('#rb-tip:not([hidden])') === null")
        mark_board(page)
        problems = [f"small: {n}" for n in page.evaluate(SMALL)]
        problems += [f"not reached: {key}" for key in page.evaluate(UNREACHED)]
        if page.evaluate(SIDEWAYS) > 0:
            problems.append("the page scrolls sideways")
        if board_unchanged(page):
            return problems
        settled(page)
    raise AssertionError("the board kept being redrawn while it was measured")


@pytest.mark.parametrize(("game", "variant", "seats", "options"), CONFIGS, ids=IDS)
def test_every_board_passes_axe_contrast_and_a_phones_target_size(
    server: Server,
    browser: Any,
    game: str,
    variant: str,
    seats: list[str],
    options: dict[str, str],
) -> None:
    """At the start, mid-game with a tip open (a place's menu of moves open too, where one
    has several), on both screens, and the same game finished: axe-core finds nothing serious
    or critical in the board, its SVGs' text meets AA contrast, and on the phone every part is
    a finger's size and every place reached (``phone_targets``)."""
    links = create(server, game, variant, seats, options)
    phone = Opened(browser, phone=True)
    page = phone.open(server.url + links["seats"][0]["url"])
    settled(page)
    found = {"phone, start": axe_problems(page, contrast=False) + phone_targets(page)}
    phone.close()
    desk = Opened(browser, phone=False)
    page = desk.open(server.url + links["seats"][0]["url"])
    found["start"] = axe_problems(page, contrast=False)
    click_places(page, 3, random.Random(5), offer_first=False)
    several = page.locator("#board [data-moves*='\\a']")  # a place of several moves: a menu
    if several.count():
        several.first.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("#offer:not([hidden]) button.move")
    open_a_tip(page, phone=False)
    found["mid-game, a tip and a menu open"] = axe_problems(page) + svg_contrast(page)
    desk.close()
    phone = Opened(browser, phone=True)
    page = phone.open(server.url + links["seats"][0]["url"])
    settled(page)
    found["phone, mid-game"] = phone_targets(page)
    open_a_tip(page, phone=True)
    found["phone, mid-game, a tip open"] = axe_problems(page, contrast=False) + svg_contrast(page)
    phone.close()
    done = finished(server, game, variant, seats, options)
    for is_phone in (False, True):
        opened = Opened(browser, phone=is_phone)
        page = opened.open(server.url + done["seats"][0]["url"])
        page.wait_for_selector("#board .rb-over")
        said = axe_problems(page, not is_phone) + svg_contrast(page)
        found[f"finished{', phone' if is_phone else ''}"] = said + (
            phone_targets(page) if is_phone else []
        )
        opened.close()
    assert {k: v for k, v in found.items() if v} == {}


# -- tips -----------------------------------------------------------------------------------------
#: how much the tip's box covers a node's box (px²), and whether the tip is inside the viewport
TIP_OVER = """(node) => {
  const t = document.querySelector('#rb-tip .rb-tip-box').getBoundingClientRect();
  const r = node.getBoundingClientRect();
  const w = Math.min(t.right, r.right) - Math.max(t.left, r.left);
  const h = Math.min(t.bottom, r.bottom) - Math.max(t.top, r.top);
  const inside = t.left >= 0 && t.top >= 0 && t.right <= innerWidth && t.bottom <= innerHeight;
  return [w > 0 && h > 0 ? w * h : 0, inside];
}"""

#: a hex no move concerns (a lake, a Worker's...) or, if none, another part of the board
HEX_PART = f"#board .pm-hex.rb-explained:not(.rb-place), {PARTS}"
HEX_PLACE = "#board .pm-hex.rb-place"


def beside(page: Any, node: Any) -> None:
    """The tip shows, whole on the screen, and covers nothing of its part."""
    assert tip_shown(page)
    # a frame for a scroll's event (the tip follows its focused part)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    covered, inside = node.evaluate(TIP_OVER)
    assert covered == 0 and inside, (
        covered,
        inside,
        node.bounding_box(),
        page.locator("#rb-tip .rb-tip-box").bounding_box(),
        page.evaluate("[innerWidth, innerHeight]"),
    )


def long_press(page: Any, node: Any) -> None:
    """A finger held on a place (a tap would make its move): its tip, no move."""
    node.dispatch_event("pointerdown", {"pointerType": "touch", "isPrimary": True})
    page.wait_for_timeout(600)
    node.dispatch_event("pointerup", {"pointerType": "touch"})
    node.dispatch_event("click", {"pointerType": "touch"})


def undisturbed(page: Any, steps: Callable[[], None]) -> None:
    """Run ``steps`` on a settled board; again (twice at most) only if the board was redrawn
    under them (a view arriving meanwhile: a redraw closes a tip, replaces the parts)."""
    for _ in range(3):
        settled(page)
        try:
            steps()
            return
        except (AssertionError, PlaywrightError):
            if board_unchanged(page):
                raise
    raise AssertionError("the board kept being redrawn")


def test_a_tapped_tip_sits_beside_its_part_and_the_next_tap_closes_it(
    server: Server, browser: Any
) -> None:
    """Pandoria Merchants solo on a phone, where every hex explains itself and the hexes to
    draw on are places beside the others: a tap shows a hex's tip beside it; a tap elsewhere
    closes it, a second tap on the hex too; a long press on a place shows its tip and makes no
    move; with a tip open, a tap on a place closes it and makes the move (the tip never takes
    the tap), and the board redrawn shows none."""
    links = create(server, "pandoria-merchants", "solo", ["human"], {"level": "beginner"})
    phone = Opened(browser, phone=True)
    page = phone.open(server.url + links["seats"][0]["url"])
    click_places(page, 2, random.Random(3), offer_first=False)  # the starting cards: hexes next

    def tap_elsewhere_and_again() -> None:
        part = page.locator(HEX_PART).first
        part.scroll_into_view_if_needed()
        part.tap()
        beside(page, part)
        page.locator("#game h1").tap()  # elsewhere
        assert not tip_shown(page)
        part.tap()
        assert tip_shown(page)
        part.tap()  # the same part again: closed
        assert not tip_shown(page)

    def long_press_a_place() -> None:
        before = version(page)
        place = page.locator(HEX_PLACE).first
        place.scroll_into_view_if_needed()
        long_press(page, place)
        beside(page, place)
        assert version(page) == before
        page.locator("#game h1").tap()
        assert not tip_shown(page)

    def a_tip_then_a_place() -> None:
        part = page.locator(HEX_PART).first
        part.scroll_into_view_if_needed()
        part.tap()
        assert tip_shown(page)
        place = page.locator(HEX_PLACE).first
        moves = (place.get_attribute("data-moves") or "").split("\n")
        before = version(page)
        place.tap()
        assert not tip_shown(page)
        if len(moves) > 1:
            page.wait_for_selector("#offer:not([hidden]) button.move")
        else:
            wait_for_version(page, before)
            assert not tip_shown(page)  # the redrawn board shows no tip

    for steps in (tap_elsewhere_and_again, long_press_a_place, a_tip_then_a_place):
        undisturbed(page, steps)
    phone.close()


def test_a_tip_by_mouse_or_keyboard_sits_beside_its_part(server: Server, browser: Any) -> None:
    """On a desktop: a hover or a click shows a part's tip beside it, the pointer may move onto
    the tip (WCAG 1.4.13), away it closes; keyboard focus shows it, Escape closes it; a click on
    a place makes the move and leaves no tip of the old board."""
    links = create(server, "pandoria-merchants", "solo", ["human"], {"level": "beginner"})
    desk = Opened(browser, phone=False)
    page = desk.open(server.url + links["seats"][0]["url"])
    click_places(page, 2, random.Random(3), offer_first=False)

    def click_and_elsewhere() -> None:
        part = page.locator(HEX_PART).first
        part.click()
        beside(page, part)
        page.locator("#game h1").click()
        assert not tip_shown(page)

    def onto_the_tip() -> None:
        # the mouse from a part straight onto its tip: it stays (WCAG 1.4.13), away it closes
        card = page.locator("#board .pm-realm-cards .pm-card .pm-building").nth(4)
        card.scroll_into_view_if_needed()
        card.hover()
        beside(page, card)
        r = card.bounding_box()
        t = page.locator("#rb-tip .rb-tip-box").bounding_box()
        x = min(max(r["x"] + r["width"] / 2, t["x"] + 4), t["x"] + t["width"] - 4)
        below = t["y"] >= r["y"] + r["height"]
        page.mouse.move(x, r["y"] + r["height"] - 2 if below else r["y"] + 2)
        page.mouse.move(x, t["y"] + t["height"] / 2, steps=6)
        assert tip_shown(page)
        assert card.get_attribute("data-explain") in page.inner_text("#rb-tip")
        page.mouse.move(2, 2)
        assert not tip_shown(page)

    def by_keyboard() -> None:
        # into the map (its one Tab stop: a place), an arrow to the next hex, Escape
        page.locator("#game h1").click()
        for _ in range(60):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.closest('#board .pm-map') !== null"):
                break
        beside(page, page.locator("#board .pm-map :focus"))
        page.keyboard.press("ArrowRight")
        beside(page, page.locator("#board .pm-map :focus"))
        page.keyboard.press("Escape")
        assert not tip_shown(page)

    def click_a_place() -> None:
        page.locator(HEX_PART).first.hover()
        place = page.locator(HEX_PLACE).first
        if len((place.get_attribute("data-moves") or "").split("\n")) > 1:
            return
        key = place.get_attribute("data-key")
        before = version(page)
        place.click()
        wait_for_version(page, before)
        # no tip left of the old board: at most the new one of the hex under the mouse
        if tip_shown(page):
            heading = page.get_attribute(f'#board [data-key="{key}"]', "data-explain-heading")
            assert page.inner_text("#rb-tip .rb-tip-heading") == heading
        page.mouse.move(2, 2)
        assert not tip_shown(page)

    for steps in (click_and_elsewhere, onto_the_tip, by_keyboard, click_a_place):
        undisturbed(page, steps)
    desk.close()


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_no_tip_covers_its_part_anywhere_on_the_screen(
    server: Server, browser: Any, phone: bool
) -> None:
    """Parts all over Battle Merchants' page, each scrolled to the top, the middle and the
    bottom of the screen: its tip (keyboard focus) never covers it and stays on the screen; and
    the kit's placement, for parts anywhere and tips of any size, never covers a part when
    there is room beside it."""
    links = create(server, "battle-merchants", "standard", ["human", "greedy"], {})
    opened = Opened(browser, phone=phone)
    page = opened.open(server.url + links["seats"][0]["url"])
    settled(page)
    count = page.locator("#board [data-explain]").count()
    for i in range(0, count, max(1, count // 12)):
        part = page.locator("#board [data-explain]").nth(i)
        for where in ("start", "center", "end"):
            part.evaluate(f"n => n.scrollIntoView({{block: '{where}', inline: 'center'}})")
            part.focus()
            if part.evaluate(
                "n => { const r = n.getBoundingClientRect(); return r.height > innerHeight / 2; }"
            ):
                continue  # a part as tall as half the screen: no room above or below
            beside(page, part)
    misplaced = page.evaluate(
        """async () => {
          const game = document.querySelector('#game').dataset.game;
          const kit = await import(`/boards/${game}/kit.js`);
          const bad = [];
          let seed = 7;
          const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
          for (let i = 0; i < 500; i += 1) {
            const vw = 360 + rnd() * 1000, vh = 600 + rnd() * 400;
            const w = 40 + rnd() * 300, h = 20 + rnd() * 200;
            const left = rnd() * (vw - 20), top = rnd() * (vh - 20);
            const r = { left, top, right: left + 8 + rnd() * 120, bottom: top + 8 + rnd() * 80 };
            const at = kit.tipPosition(r, w, h, vw, vh);
            const inside = at.left >= 0 && at.top >= 0 && at.left + w <= vw && at.top + h <= vh;
            const over = at.left < r.right && at.left + w > r.left
              && at.top < r.bottom && at.top + h > r.top;
            if (!inside || (at.fits && over)) bad.push({ r, w, h, vw, vh, at });
          }
          return bad;
        }"""
    )
    assert misplaced == []
    opened.close()


# -- a phone's tap targets ------------------------------------------------------------------------
#: every place and every part that explains itself smaller than 24 x 24 CSS px (a whole drawing,
#: a roving group, counts as its parts)
SMALL = """() => [...document.querySelectorAll('#board [data-moves], #board [data-explain]')]
  .filter(n => !n.hasAttribute('data-rove'))
  .map(n => [n, n.getBoundingClientRect()])
  .filter(([, r]) => (r.width || r.height) && (r.width < 24 || r.height < 24))
  .map(([n, r]) => `${n.dataset.key || n.getAttribute('class')}: ${r.width} x ${r.height}`)"""

#: the places a scroll into view does not bring whole on the screen, uncovered at their middle
UNREACHED = """() => [...document.querySelectorAll('#board [data-moves]')].filter(n => {
  n.scrollIntoView({ block: 'center', inline: 'center' });
  const r = n.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  const whole = r.left >= -0.5 && r.top >= -0.5
    && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
  n._rbHit = !whole ? 'not whole on the screen'
    : !hit ? 'nothing at its centre'
    : (hit.id ? '#' + hit.id : hit.tagName.toLowerCase() + '.' + [...hit.classList].join('.'));
  return !whole || !hit || !(hit === n || n.contains(hit));
}).map(n => n.dataset.key + ' (' + n._rbHit + ')')"""

SIDEWAYS = "document.documentElement.scrollWidth - document.documentElement.clientWidth"

#: (game, variant, players, options): the board layouts a phone shows that CONFIGS has not
#: (those are checked with axe, above)
PHONE_CONFIGS = [
    ("pandoria-merchants", "standard", 3, {}),
    ("pandoria-merchants", "standard", 4, {}),
    ("battle-merchants", "standard", 4, {}),
    ("merchants-of-magick", "standard", 4, {}),
]


@pytest.mark.parametrize(
    ("game", "variant", "players", "options"),
    PHONE_CONFIGS,
    ids=[f"{g}-{v}-{n}p" for g, v, n, _ in PHONE_CONFIGS],
)
def test_a_phone_taps_parts_of_24_px_at_least_and_pans_to_every_place(
    server: Server, browser: Any, game: str, variant: str, players: int, options: Any
) -> None:
    """At the start and after two moves: every place and every part that explains itself is
    at least 24 x 24 CSS px (WCAG 2.2 target size, by default: no zoom asked for), every place
    comes whole on the screen and uncovered when scrolled to (a board pans inside its frame),
    and the page never scrolls sideways."""
    seats = ["human"] + ["greedy"] * (players - 1)
    links = create(server, game, variant, seats, options)
    phone = Opened(browser, phone=True)
    page = phone.open(server.url + links["seats"][0]["url"])
    for moves in (0, 2):
        if moves:
            click_places(page, moves, random.Random(players), offer_first=False)
        settled(page)
        assert page.locator("#board [data-moves]").count() > 0
        assert phone_targets(page) == [], f"after {moves} moves"
    phone.close()


# -- the keyboard alone ---------------------------------------------------------------------------
ENDING = {"done", "pass", "end", "skip"}

#: where the keyboard's focus is, and whether it can be seen: an outline, the boards' blue
#: edge (a stroke of #0b57d0 on the part's shape) or glow
FOCUS = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return { kind: 'none', moves: [], seen: true, key: '' };
  const board = a.closest('#board') !== null;
  const kind = a.matches('#offer button.move') ? 'offer'
    : a.matches('#moves button.move') ? 'listed'
    : a.matches('#moves details:not([open]) > summary') ? 'folded'
    : board && a.hasAttribute('data-moves') ? 'place' : board ? 'part' : 'other';
  const moves = a.dataset.moves ? a.dataset.moves.split('\\n')
    : a.dataset.move ? [a.dataset.move] : [];
  const blue = (n) => getComputedStyle(n).stroke === 'rgb(11, 87, 208)';
  const s = getComputedStyle(a);
  const seen = (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2)
    || s.filter.includes('drop-shadow') || blue(a) || [...a.querySelectorAll('*')].some(blue);
  return { kind, moves, seen, key: a.dataset.key || a.dataset.move || a.tagName };
}"""

#: the moves on the page now: the list's, and those the board has a place for
MOVES = """() => [
  [...document.querySelectorAll('#moves button.move')].map(b => b.dataset.move),
  [...document.querySelectorAll('#board [data-moves]')].flatMap(n => n.dataset.moves.split('\\n')),
]"""


def keyboard_move(
    page: Any, unseen: list[str], rng: random.Random, history: list[str]
) -> tuple[str, str]:
    """One move by keyboard alone: Tab to a place of the board for a move that does not just
    end a phase (then, inside a drawing, a few arrows to another such place now and then), else
    to the list for a move the board has no place for (unfolding its group with Enter), else
    to any; Enter; Enter on the menu's first move if the place stands for several. A move made
    again and again lately (``history``) is left for others where there are (Battle Merchants'
    Slush Fund, taken every turn, lets the year go on for ever). Where the focus is on the
    board, it must be seen (``unseen`` collects where not). Returns what the focus was on when
    the move was made (a place, the list) and the move."""
    recent = history[-6:]
    stalling = {m for m in recent if recent.count(m) >= 3}
    listed, drawn = page.evaluate(MOVES)
    skip = ENDING | stalling if set(drawn) - ENDING - stalling else ENDING
    playing = set(drawn) - skip
    off_board = [m for m in listed if m not in drawn]
    # a place for a move that plays; else the list's move the board lacks; else a place that
    # ends a phase or passes; else anything
    wanted = "place" if playing else "listed" if off_board else "ending" if drawn else "any"
    before = version(page)
    visited = []
    for _ in range(600):
        at = page.evaluate(FOCUS)
        visited.append(f"{at['kind']}:{at['key']}")
        if at["kind"] in ("place", "part") and not at["seen"]:
            unseen.append(at["key"])
        if at["kind"] == "place" and (
            wanted in ("any", "ending") or (wanted == "place" and not set(at["moves"]) <= skip)
        ):
            break
        if (
            wanted == "place"
            and at["kind"] in ("place", "part")
            and page.evaluate(PLAYABLE_INSIDE, sorted(skip))
        ):
            at = arrows_to_a_place(page, at, rng, skip)  # its Tab stop is not the one
            break
        if at["kind"] == "listed" and (
            wanted == "any" or (wanted == "listed" and at["moves"][0] in off_board)
        ):
            break
        if at["kind"] == "folded" and wanted in ("listed", "any"):
            page.keyboard.press("Enter")  # a folded group of the list: unfolded
        page.keyboard.press("Tab")
    else:
        raise AssertionError(f"no {wanted} reached by Tab: {listed}; {visited[:80]}")
    if at["kind"] == "place" and page.evaluate(PLAYABLE_INSIDE, sorted(skip)):
        at = arrows_to_a_place(page, at, rng, skip)  # now and then another place, by arrows
    page.keyboard.press("Enter")
    made = at["moves"][0]
    if len(at["moves"]) > 1:  # the page's menu of the place's moves: its first takes the focus
        page.wait_for_selector("#offer:not([hidden]) button.move")
        offered = page.evaluate(FOCUS)
        assert offered["kind"] == "offer"
        made = offered["moves"][0]
        page.keyboard.press("Enter")
    wait_for_version(page, before)
    return str(at["kind"]), made


BACK = {
    "ArrowRight": "ArrowLeft",
    "ArrowLeft": "ArrowRight",
    "ArrowUp": "ArrowDown",
    "ArrowDown": "ArrowUp",
}


def arrows_to_a_place(
    page: Any, at: dict[str, Any], rng: random.Random, skip: set[str]
) -> dict[str, Any]:
    """From ``at`` inside a drawing (a roving group), a few arrows at random: the place they
    lead to if it is one for a move not in ``skip``; else Home and Right, part by part in
    reading order, to the first such place (Right reaches every part)."""
    playing = lambda f: f["kind"] == "place" and not set(f["moves"]) <= skip  # noqa: E731
    for _ in range(rng.randrange(4)):
        page.keyboard.press(rng.choice(["ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown"]))
    moved = page.evaluate(FOCUS)
    if playing(moved):
        return dict(moved)
    page.keyboard.press("Home")
    visited = []
    for _ in range(400):
        moved = page.evaluate(FOCUS)
        if playing(moved):
            return dict(moved)
        visited.append(f"{moved['kind']}:{moved['key']}:{'/'.join(moved['moves'])}")
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"no place reached by the arrows from {at}: {visited[:60]}")


#: whether the focus is in a drawing (a roving group) with a place for a move not in the skip
PLAYABLE_INSIDE = """(skip) => {
  const group = document.activeElement.closest('#board [data-rove]');
  return group !== null && [...group.querySelectorAll('[data-moves]')].some(
    n => n.dataset.moves.split('\\n').some(m => !skip.includes(m)));
}"""


#: (game, variant, seats, options, viewport, moves): a short game of each (a solo, a fast bot)
#: played whole on one screen, its first moves on the other
KEYBOARD_GAMES = [
    ("merchants-of-magick", "solo", ["human"], {}, "desktop", None),
    ("merchants-of-magick", "solo", ["human"], {}, "phone", 8),
    ("ye-olde-magick-shoppe", "solo", ["human"], {}, "phone", None),
    ("ye-olde-magick-shoppe", "solo", ["human"], {}, "desktop", 8),
    ("battle-merchants", "standard", ["human", "greedy"], {}, "desktop", None),
    ("battle-merchants", "standard", ["human", "greedy"], {}, "phone", 8),
    ("pandoria-merchants", "standard", ["human", "random"], {}, "phone", None),
    ("pandoria-merchants", "standard", ["human", "random"], {}, "desktop", 8),
    ("archmagi", "standard", ["human", "random"], {"magi": "fire,water"}, "desktop", None),
    ("archmagi", "standard", ["human", "random"], {"magi": "fire,water"}, "phone", 8),
]


@pytest.mark.parametrize(
    ("game", "variant", "seats", "options", "viewport", "moves"),
    KEYBOARD_GAMES,
    ids=[f"{g}-{v}-{w}-{'whole' if m is None else m}" for g, v, _, _, w, m in KEYBOARD_GAMES],
)
def test_a_game_with_the_keyboard_alone(
    server: Server,
    browser: Any,
    game: str,
    variant: str,
    seats: list[str],
    options: Any,
    viewport: str,
    moves: int | None,
) -> None:
    """With Tab, Enter and the arrows (no click, no tap), from the first move to the end
    screen (or the first ``moves``): every move the seat needs is reached, on the board where
    it has a place, and the focus is always seen on the board."""
    links = create(server, game, variant, seats, options)
    opened = Opened(browser, phone=viewport == "phone")
    page = opened.open(server.url + links["seats"][0]["url"])
    started = time.monotonic()
    rng = random.Random(len(seats))
    unseen: list[str] = []
    made = {"place": 0, "listed": 0}
    history: list[str] = []
    while moves is None or len(history) < moves:
        wait_until(
            page,
            "document.querySelector('#moves button.move') !== null"
            " || document.querySelector('#board .rb-over') !== null",
            60,
        )
        if page.locator("#board .rb-over").count():
            break
        kind, move = keyboard_move(page, unseen, rng, history)
        made[kind] += 1
        history.append(move)
        assert time.monotonic() - started < 240, (made, history[-30:])
    if moves is None:
        page.wait_for_selector("#result:not([hidden])")  # the end screen
        assert made["place"] > 5
    assert made["place"] >= made["listed"], (made, history)
    assert unseen == [], sorted(set(unseen))
    opened.close()
