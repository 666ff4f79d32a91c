"""Learning a game in the web app, without a browser: the how-to-play pages (every game's
``rules.md`` organised as a player learns, rendered safely, in the project's own words), the
card reference (every card, authored ones marked, the sets that differ by variant and player
count), the first-turn guides (validated on load), the links page a new game redirects to (safe
to reload), upload errors in a player's words, the solo rating scale and score notes, and the
same winner in the same words on the web and in ``rulebook replay``."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import rulebook
from rulebook.cli import app
from rulebook.core import get_game
from rulebook.core.data import DataError
from rulebook.core.guide import GuideFile, load_guide
from rulebook.web import learn
from webtools import auth, client, dump, get_view, new_game, seat_tokens, wait_for

RULEBOOKS = Path("/work/shared/rulebooks")
GAMES = rulebook.games()


#: where each test's app stores its games (its ``tmp_path``)
STORE = "games.sqlite3"


@pytest.fixture
def c(tmp_path: Path) -> Any:
    with client(tmp_path / STORE) as test_client:
        yield test_client


# -- how to play ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_how_to_play_is_organised_as_a_player_learns(c: TestClient, name: str) -> None:
    """Goal, what is on the table, a turn (or round), scoring and the end, the board's symbols,
    the terminal's, and a section for every variant and player count that plays differently,
    each with the anchor the game page jumps to."""
    game = get_game(name)
    page = c.get(f"/rules/{name}")
    assert page.status_code == 200
    ids = set(re.findall(r'<h2 id="(rules-[a-z0-9-]+)"', page.text))
    for wanted in ("goal", "table", "board", "terminal"):
        assert f"rules-{wanted}" in ids, wanted
    assert ids & {"rules-turn", "rules-round"}
    assert ids & {"rules-scoring", "rules-end"}
    for variant in game.variants:
        if variant.name != "standard":
            assert f"rules-{variant.name}" in ids, variant.name
    if name == "battle-merchants":
        assert "rules-players-2" in ids  # Salesman Steve
    assert "{#" not in page.text  # anchors are not shown
    assert 'href="#rules-goal"' in page.text  # the table of contents
    terminal = game.how_to_play()
    assert terminal is not None and "{#" not in terminal  # `rulebook rules` shows no anchors


def test_rules_markdown_is_rendered_safely() -> None:
    rules = learn.render(
        "# T\n\n## A part {#solo}\n\n<script>alert(1)</script> <img src=x onerror=alert(1)> "
        "[a](javascript:alert(1)) [b](/rules/archmagi)\n"
    )
    html = str(rules.html)
    assert "<script" not in html and "<img" not in html
    assert "&lt;script&gt;" in html
    assert 'href="javascript' not in html
    assert '<a href="/rules/archmagi">b</a>' in html
    assert '<h2 id="rules-solo">A part</h2>' in html
    assert rules.sections == (("rules-solo", "A part"),)


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def shared_runs(ours: str, theirs: str, length: int) -> list[str]:
    """The runs of ``length`` words of ``ours`` that also stand in ``theirs``."""
    mine = words(ours)
    source = " " + " ".join(words(theirs)) + " "
    runs = (" ".join(mine[i : i + length]) for i in range(len(mine) - length + 1))
    return sorted({run for run in runs if f" {run} " in source})


@pytest.mark.skipif(not RULEBOOKS.is_dir(), reason="the rulebooks are not on this machine")
@pytest.mark.parametrize("name", GAMES)
def test_how_to_play_and_guide_are_in_the_projects_own_words(name: str) -> None:
    """No run of 8 words of the how-to-play or the guide stands in the game's rulebook."""
    game = get_game(name)
    rulebook_text = (RULEBOOKS / game.rulebook).read_text(encoding="utf-8")
    ours = game.how_to_play() or ""
    ours += " ".join(f"{s.title}. {s.text}" for s in load_guide(game))
    assert shared_runs(ours, rulebook_text, 8) == []


def test_a_missing_game_has_no_rules_page(c: TestClient) -> None:
    r = c.get("/rules/chess", headers={"accept": "text/html"})
    assert r.status_code == 404 and "no game called" in r.text


# -- the card reference --------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_the_card_reference_lists_every_card_with_authored_ones_marked(
    c: TestClient, name: str
) -> None:
    game = get_game(name)
    for card_set in learn.card_sets(name):
        page = c.get(f"/cards/{name}?set={card_set.key}")
        assert page.status_code == 200
        variant, players = card_set.key.split("-") if card_set.key != "all" else ("", "")
        setup = game.setup(int(players), 0, variant) if variant else game.setup(2, 0)
        texts = game.card_texts(setup)
        assert page.text.count('<li class="card-ref') == len(texts)
        for card_name, (text, why) in texts.items():
            assert f">{escape(card_name)}" in page.text
            assert escape(text) in page.text
            if why:  # the text says so itself, in the players' words
                assert "uthored for this project" in text, card_name  # "Partly authored" too
        authored = sum(1 for _, why in texts.values() if why)
        assert page.text.count("card-ref is-authored") == authored
    assert 'id="card-filter"' in c.get(f"/cards/{name}").text


def escape(text: str) -> str:
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&#34;")
        .replace("'", "&#39;")
    )


def test_card_sets_follow_the_configurations_that_change_the_cards() -> None:
    battle = [s.label for s in learn.card_sets("battle-merchants")]
    assert battle == ["standard, 2 players", "standard, 3 players", "standard, 4 players"]
    pandoria = [s.label for s in learn.card_sets("pandoria-merchants")]
    # the solo version's cards differ (the Solo Map, its 8 Territories)
    assert pandoria == ["standard, 2-4 players", "family, 2-4 players", "solo, 1 player"]
    assert [s.key for s in learn.card_sets("archmagi")] == ["all"]
    assert learn.card_set("battle-merchants", "nonsense") == learn.card_sets("battle-merchants")[0]
    setup = get_game("pandoria-merchants").setup(3, 0, "family")
    assert learn.set_for(setup) == "family-2"


def test_authored_cards_carry_their_data_files_reasons() -> None:
    """The hook names only cards of the game, with the one-line reason of the data file
    (partly authored cards name each authored value)."""
    for name in GAMES:
        game = get_game(name)
        assert game.authored_cards is not None
        every: set[str] = set()
        for v in game.variants:
            for n in range(v.min_players, v.max_players + 1):
                every |= set(game.card_texts(game.setup(n, 0, v.name)))
        for v in game.variants:
            authored = game.authored_cards(game.setup(v.min_players, 0, v.name))
            assert set(authored) <= every, name
            assert all(why.strip() for why in authored.values())
    mom = get_game("merchants-of-magick").card_texts(get_game("merchants-of-magick").setup(2, 0))
    assert mom["Master Blacksmith"][1].startswith("column: a blacksmith works steel")
    assert mom["Fiery Backpack"][1].startswith("deck not in the text")


# -- the first-turn guides -----------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_a_guide_for_every_variant(name: str) -> None:
    game = get_game(name)
    steps = load_guide(game)
    assert steps
    for v in game.variants:
        shown = learn.guide_steps(game.setup(v.min_players, 0, v.name))
        assert len(shown) >= 3
        assert shown[-1]["target"] == "#moves"  # ends with what to do now


def test_a_bad_guide_is_refused_on_load(monkeypatch: pytest.MonkeyPatch) -> None:
    game = get_game("archmagi")
    good = {"target": "#moves", "title": "t", "text": "x"}

    def with_steps(steps: list[dict[str, Any]]) -> None:
        monkeypatch.setattr(
            "rulebook.core.guide.load", lambda *_: GuideFile.model_validate({"steps": steps})
        )

    with_steps([good, {**good, "variants": ["solo"]}])
    with pytest.raises(DataError, match="no variant 'solo'"):
        load_guide(game)
    with_steps([good, {**good, "players": [7]}])
    with pytest.raises(DataError, match="players must be 2-4"):
        load_guide(game)
    with_steps([good])
    with pytest.raises(DataError, match="needs 2 or more"):
        load_guide(game)
    with pytest.raises(ValueError, match="target"):
        GuideFile.model_validate({"steps": [{**good, "target": "<script>"}]})


# -- the links page: a redirect after the post, safe to reload ------------------------------------
def games_stored(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        count: int = conn.execute("select count(*) from games").fetchone()[0]
        return count


def test_a_new_game_redirects_to_a_links_page_that_reloads_safely(
    c: TestClient, tmp_path: Path
) -> None:
    db = tmp_path / STORE
    form = {"game": "archmagi", "players": "3", "seat_0": "human", "seat_1": "human"}
    r = c.post("/new", data={**form, "seat_2": "greedy"}, follow_redirects=False)
    assert r.status_code == 303
    page, key = r.headers["location"].split("#")
    game_id = page.split("/")[2]
    assert page == f"/games/{game_id}/links" and len(key) >= 32
    stored = dump(db)
    assert key not in stored  # only its digest is kept
    first = c.get(f"/api/games/{game_id}/links", headers=auth(key)).json()
    for _ in range(2):  # reloading, bookmarking: the same links, nothing created
        assert c.get(page).status_code == 200
        assert c.get(f"/api/games/{game_id}/links", headers=auth(key)).json() == first
    assert games_stored(db) == 1 and dump(db) == stored
    assert [s["seat"] for s in first["seats"]] == [0, 1] and first["hotseat"]["seats"] == [0, 1]
    for s in first["seats"]:  # the links dealt again open their seats
        token = s["url"].split("#")[1]
        assert token not in stored
        assert get_view(c, game_id, token)["seat"] == s["seat"]
    for wrong in ("", "x" * 32, key[:-1]):
        r = c.get(f"/api/games/{game_id}/links", headers=auth(wrong) if wrong else {})
        assert r.status_code == 403, wrong
    assert c.get("/new", follow_redirects=False).headers["location"] == "/#new-game"


def test_the_api_gives_the_links_page_too(c: TestClient) -> None:
    links = new_game(c, "merchants-of-magick", ["human", "greedy"])
    key = links["links_page"].split("#")[1]
    again = c.get(f"/api/games/{links['id']}/links", headers=auth(key)).json()
    assert again == links
    assert seat_tokens(again) == seat_tokens(links)


# -- errors in a player's words ------------------------------------------------------------------
@pytest.mark.parametrize("content", [b"", b"hello", b"\xff\xfe", b'{"game": '])
def test_upload_errors_name_no_parser_internals(
    c: TestClient, tmp_path: Path, content: bytes
) -> None:
    db = tmp_path / STORE
    before = dump(db)
    r = c.post("/upload", files={"file": ("x.json", content)})
    assert r.status_code == 400
    message = re.search(r'id="upload-error"[^>]*>([^<]*)<', r.text)
    assert message is not None and "not a usable save file" in message.group(1)
    for internal in ("Expecting", "line 1 column", "char 0", "codec", "utf-8"):
        assert internal not in message.group(1)
    assert dump(db) == before


def test_form_errors_are_placed_where_the_eye_is(c: TestClient) -> None:
    """The form posts to an address whose fragment is its error: the browser scrolls there
    without any script, and the page's script focuses it (role=alert)."""
    home = c.get("/").text
    assert 'action="/new#form-error"' in home and 'action="/upload#upload-error"' in home
    form = {"game": "archmagi", "players": "2", "seat_0": "human", "seat_1": "greedy"}
    r = c.post("/new", data={**form, "option_magi": "fire,fire"})
    assert r.status_code == 400
    assert re.search(r'<p class="error" role="alert" id="form-error" tabindex="-1">', r.text)


def test_a_cut_off_game_address_says_so(c: TestClient) -> None:
    r = c.get("/games/abc", headers={"accept": "text/html"})
    assert r.status_code == 404 and "may have been cut off" in r.text


# -- end screens: the rating scale, notes, the verdict -------------------------------------------
def test_solo_payloads_carry_the_rating_scale_and_score_notes(c: TestClient) -> None:
    mom = new_game(c, "merchants-of-magick", ["human"], variant="solo")
    view = get_view(c, mom["id"], seat_tokens(mom)[0])
    assert [(r["from"], r["title"]) for r in view["rating_scale"]] == [
        (0, "Unrated"),
        (60, "Apprentice"),
        (70, "Craftsman"),
        (80, "Merchant"),
        (90, "Master"),
    ]
    two = new_game(c, "merchants-of-magick", ["human", "greedy"])
    assert get_view(c, two["id"])["rating_scale"] == []
    solo = new_game(c, "pandoria-merchants", ["greedy"], variant="solo")
    wait_for(lambda: get_view(c, solo["id"])["over"])
    result = get_view(c, solo["id"])["result"]
    # a note for every category: the Trolls' and the player's
    assert set(result["opponent_breakdown"]) | set(result["breakdowns"][0]) <= set(result["notes"])
    assert "below 0" in result["notes"]["territories"]
    assert result["verdict"].startswith("Final score: ")


runner = CliRunner()


@pytest.mark.parametrize(
    ("game", "seats", "variant"),
    [
        ("merchants-of-magick", ["greedy", "random"], "standard"),
        ("battle-merchants", ["random", "greedy", "greedy"], "standard"),
        ("pandoria-merchants", ["greedy"], "solo"),
    ],
)
def test_a_downloaded_save_and_replay_name_the_same_winner_in_the_same_words(
    c: TestClient, tmp_path: Path, game: str, seats: list[str], variant: str
) -> None:
    links = new_game(c, game, seats, variant=variant)
    wait_for(lambda: get_view(c, links["id"])["over"], timeout=120)
    web = get_view(c, links["id"])["result"]["verdict"]
    save = c.get(f"/api/games/{links['id']}/save")
    assert save.status_code == 200
    path = tmp_path / "game.json"
    path.write_bytes(save.content)
    assert json.loads(save.content)["seats"] == seats
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert web in said, (web, said[-400:])
    winners = rulebook.replay(path).winners()
    if len(seats) > 1:
        assert f"seat {winners[0] + 1} ({seats[winners[0]]})" in web  # named from 1
