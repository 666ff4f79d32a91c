"""A designer walks through the balance lab in chromium, on a laptop and on a phone, never
touching a terminal: Merchants of Magick's The Warrior given fewer Coins in the data form, saved
as a what-if, downloaded as TOML, compared with the shipped data on the same seeds (a reload
mid-run picks the progress up again), the change read with its interval; then a tuning run of two
values started from the page, searching, and cancelled.

The server's lab runs the compiled modules when they are built and current (``make test``
builds them), so that 1,000 games a side fit the suite's time; without them it plays fewer."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from boardpages import chromium, wait_until
from webserver import Server

pytestmark = pytest.mark.xdist_group("lab-browser")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


def compiled() -> bool:
    from rulebook import compiled as built

    return built._built() is not None


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("lab-browser")
    running = Server(
        f"sqlite:///{folder / 'games.sqlite3'}",
        folder / "server.log",
        extra=("--lab-dir", str(folder / "lab"), "--lab-workers", "2"),
        env={"RULEBOOK_COMPILED": "1" if compiled() else "0"},
    )
    with running:
        yield running
    assert "Traceback" not in (folder / "server.log").read_text()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def ready(page: Any) -> None:
    """Wait until the page has drawn itself (a page still loading has no body yet)."""
    wait_until(page, "document.body !== null && document.body.dataset.ready === 'yes'")


def make_whatif(page: Any, url: str, coins: str, name: str) -> str:
    """From the lab's home to a saved what-if: its page's id."""
    page.goto(f"{url}/lab")
    ready(page)
    page.select_option("#data-game", "merchants-of-magick")
    with page.expect_navigation():
        page.click("#change-data button[type=submit]")
    ready(page)
    page.fill("#filter", "Warrior")
    group = page.locator(".data-group:not([hidden])", has_text="adventurers: The Warrior")
    field = group.locator(".value", has=page.locator("label", has_text=re.compile("^coins$")))
    assert field.locator(".about").inner_text().startswith("whole number, 0 or more")
    assert "authored by this project" in field.locator(".about").inner_text()
    field.locator("input").fill("-2")  # a value it may not be: refused, nothing saved
    page.fill("#whatif-name", name)
    page.click("#save")
    wait_until(page, "!document.querySelector('#save-error').hidden")
    assert "below 0, the least it may be" in page.inner_text("#save-error")
    field.locator("input").fill(coins)
    assert "1 value changed" in page.inner_text("#changes-count")
    page.click("#show-toml")
    wait_until(page, "!document.querySelector('#toml-preview').hidden")
    assert f"coins = {coins}" in page.inner_text("#toml-preview")
    page.click("#save")
    page.wait_for_url(re.compile(r"/lab/whatifs/[0-9a-f]+$"))
    assert f"12{coins}" in page.inner_text("table").replace("\t", "").replace(" ", "").replace(
        "coins", ""
    )
    return str(page.url.rsplit("/", 1)[1])


def download_toml(page: Any, whatif: str, coins: int) -> None:
    with page.expect_download() as waiting:
        page.click(f"a[href='/lab/whatifs/{whatif}.toml']")
    path = waiting.value.path()
    data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    warrior = data["merchants-of-magick"]["adventurers.toml"]["adventurers"]["The Warrior"]
    assert warrior == {"coins": coins}


def compare(page: Any, games: int) -> str:
    """Start the comparison from the what-if's page (greedy rung only); the run's id."""
    with page.expect_navigation():
        page.click("text=Compare it with the shipped data")
    ready(page)
    assert page.input_value("#run-game") == "merchants-of-magick"
    assert page.locator("#run-whatif option:checked").inner_text().startswith("Warrior")
    page.fill("#run-players", "4")
    page.dispatch_event("#run-players", "change")
    for box in page.locator("#run-rungs input").all():
        if box.get_attribute("value") != "greedy":
            box.uncheck()
    page.fill("#run-games", str(games))
    page.click("#estimate-button")
    wait_until(page, "document.querySelector('#estimate').textContent.startsWith('About')", 60)
    page.click("#start")
    page.wait_for_url(re.compile(r"/lab/runs/[0-9a-f]+$"))
    return str(page.url.rsplit("/", 1)[1])


def read_result(page: Any, games: int) -> None:
    wait_until(page, "document.querySelector('#run-page').dataset.status === 'running'", 60)
    wait_until(page, "document.querySelector('#run-progress').value > 0", 60)
    before = float(page.get_attribute("#run-progress", "value") or 0)
    page.reload()  # mid-run: the page picks the run up where it is
    wait_until(page, f"document.querySelector('#run-progress').value >= {before}", 30)
    assert page.locator("#run-progress").get_attribute("max") == str(2 * games)
    wait_until(page, "document.querySelector('#run-page').dataset.status === 'done'", 400)
    row = page.locator("#result-body tr", has_text="The Warrior")
    cells = row.locator("td").all_inner_texts()
    # shipped rate, its interval, the what-if's rate, its interval
    assert re.fullmatch(r"\d+\.\d%", cells[0]) and re.fullmatch(r"\d+\.\d% to \d+\.\d%", cells[1])
    assert re.fullmatch(r"\d+\.\d%", cells[2]) and re.fullmatch(r"\d+\.\d% to \d+\.\d%", cells[3])
    assert "corrected for the many comparisons (Holm)" in page.inner_text("#result-body")
    assert page.locator("#plot-list img").count() >= 3
    assert "rulebook compare" in page.inner_text("#commands")


def tune(page: Any, url: str) -> None:
    """A 3-minute tuning run of two values, started, seen searching, cancelled."""
    page.goto(f"{url}/lab")
    ready(page)
    page.check("input[name=kind][value=tune]")
    page.select_option("#run-game", "merchants-of-magick")
    page.dispatch_event("#run-game", "change")
    wait_until(page, "document.querySelectorAll('#knob-pick option').length > 10", 30)
    for box in page.locator("#run-rungs input").all():  # greedy alone: a quick search
        if box.get_attribute("value") != "greedy":
            box.uncheck()
    for who in ("The Warrior", "The Cleric"):
        page.fill("#knob-search", who)
        page.dispatch_event("#knob-search", "input")
        option = page.locator("#knob-pick option", has_text=f"adventurers: {who}, coins")
        page.select_option("#knob-pick", option.get_attribute("value"))
    assert page.locator("#knobs tbody tr").count() == 2
    page.dispatch_event("#run-rungs", "change")
    assert "every faction within 5 points" in page.inner_text("#tune-target-text")
    page.fill("#tune-minutes", "3")
    page.click("#start")
    page.wait_for_url(re.compile(r"/lab/runs/[0-9a-f]+$"), timeout=60_000)
    wait_until(page, "document.querySelector('#run-state').textContent.includes('searching')", 90)
    page.click("#cancel")
    wait_until(page, "document.querySelector('#run-page').dataset.status === 'cancelled'", 60)


@pytest.mark.parametrize("where", ["desktop", "phone"])
def test_a_designer_changes_a_card_and_reads_the_balance_move(
    server: Server, browser: Any, where: str
) -> None:
    games = 1000 if compiled() else 200
    context = browser.new_context(
        **(DESKTOP if where == "desktop" else PHONE), accept_downloads=True
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        coins = "8" if where == "desktop" else "10"
        whatif = make_whatif(page, server.url, coins, f"Warrior {coins} ({where})")
        download_toml(page, whatif, int(coins))
        compare(page, games)
        read_result(page, games)
        tune(page, server.url)
        # nothing of the page is wider than the screen
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    finally:
        context.close()
    assert errors == []
