"""Real-browser tests: headless Debian chromium driven by Playwright against a live server.

They click what a person clicks: a whole Riichi East-only game at desktop and phone size (the
test picks the discards), a real Houou record opened from the records folder and stepped
through, a review of it, and every page at phone widths, failing on any sideways scroll.
Screenshots go to a temporary folder, or to $TENPAI_WEB_SHOTS (docs/img/web refreshes them:
``TENPAI_WEB_SHOTS=docs/img/web pytest -p no:xdist tests/web/test_browser.py``).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from tenpai.engine.wall import SplitMix64

from .helpers import HOUOU, LiveServer

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: The English names the results must show for the engine's yaku ids, written out here (not
#: taken from the code under test) for the yaku the seeded games below reach.
ENGLISH = {
    "riichi": "Riichi", "menzen_tsumo": "Fully concealed hand (tsumo)", "ippatsu": "Ippatsu",
    "pinfu": "Pinfu (no-points hand)", "tanyao": "All simples", "iipeikou": "Pure double sequence",
    "yakuhai_haku": "White dragon", "yakuhai_hatsu": "Green dragon", "yakuhai_chun": "Red dragon",
    "dora": "Dora", "aka_dora": "Red five", "ura_dora": "Ura-dora", "toitoi": "All triplets",
    "honitsu": "Half flush", "chinitsu": "Full flush", "ittsu": "Pure straight",
    "sanshoku": "Mixed triple sequence", "chanta": "Half outside hand", "haitei": "Last tile draw",
    "houtei": "Last tile discard", "rinshan": "After a kan", "chiitoitsu": "Seven pairs",
    "sanankou": "Three concealed triplets", "shousangen": "Little three dragons",
}
_WINDS = ("East", "South", "West", "North")
#: Chinese/Japanese characters: results in English must not need a CJK font.
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


def _page(browser: Any, width: int = 1280, height: int = 800) -> Any:
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def _texts(page: Any, selector: str) -> list[str]:
    texts: list[str] = page.eval_on_selector_all(selector, "els => els.map(e => e.textContent)")
    return texts


def _no_sideways_scroll(page: Any, where: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    inner = page.evaluate("window.innerWidth")
    assert width <= inner, f"{where}: the page is {width} px wide on a {inner} px screen"


def _expected_yaku(e: dict[str, Any], seat_wind: int, round_wind: int) -> list[str]:
    out = []
    for name, _ in e["yakus"] if "yakus" in e else e["yaku"]:
        if name == "yakuhai_seat_wind":
            out.append(f"Seat wind ({_WINDS[seat_wind]})")
        elif name == "yakuhai_round_wind":
            out.append(f"Round wind ({_WINDS[round_wind]})")
        else:
            assert name in ENGLISH, f"add {name!r} to the test's ENGLISH table"
            out.append(ENGLISH[name])
    return out


@pytest.mark.parametrize(("width", "height", "suffix"), [(1280, 800, ""), (390, 844, "-phone")])
def test_play_a_whole_tonpuu_game_by_clicking(
    browser: Any, live_server: LiveServer, shots: Path, width: int, height: int, suffix: str
) -> None:
    page = _page(browser, width, height)
    page.goto(live_server.url + "/?speed=0")
    page.select_option("#rules", "riichi")
    page.select_option("#opt-length", "tonpuu")
    for sel in ("#opp1", "#opp2", "#opp3"):
        page.select_option(sel, "efficiency")
    page.fill("#seed", "11")
    _no_sideways_scroll(page, "play setup")
    page.click("#start")
    page.wait_for_selector("#play-table .my-row .tile.playable", timeout=30_000)
    # Seats are named and told apart; the one on turn is lit; the wall count is in words.
    plates = _texts(page, "#play-table .plate .name")
    assert sorted(plates) == ["efficiency 1", "efficiency 2", "efficiency 3", "you"]
    on_turn = "els => els.map(e => e.dataset.seat)"
    assert page.eval_on_selector_all("#play-table .zone.on-turn", on_turn) == ["0"]
    assert re.fullmatch(r"tiles left \d+", page.inner_text("#play-table .center .left"))
    assert re.match(r"you draw (\d[mps]|red 5[mps]|East|South|West|North|\w+ dragon)$",
                    page.inner_text("#play-table .last"))
    # The open decision has a prompt and a running clock.
    assert page.inner_text("#actions .prompt") == "Your turn: click a tile to discard"
    page.wait_for_function("document.querySelector('#actions .clock').textContent === '0:01'")
    # Tiles are drawn, not typed: no SVG text, so no font is needed for any face.
    assert page.evaluate("document.querySelectorAll('.tile svg text').length") == 0
    _no_sideways_scroll(page, "play table")
    page.screenshot(path=str(shots / f"play{suffix}.png"))
    rng = SplitMix64(11)
    clicks = 0
    panels: list[list[dict[str, Any]]] = []
    won_shown = False
    deadline = time.monotonic() + 200
    while not page.is_visible("#review-played"):
        assert time.monotonic() < deadline, "the game did not finish in time"
        if page.is_visible("#continue"):
            _no_sideways_scroll(page, "a hand's result")
            panel = page.eval_on_selector_all("#play-results .result", """els => els.map(r => ({
                title: r.querySelector('h3').textContent,
                yaku: [...r.querySelectorAll('.yaku-name')].map(y => y.textContent),
                hanfu: (r.querySelector('.hanfu') || {}).textContent || '',
                deltas: [...r.querySelectorAll('.deltas .who')].map(d => d.textContent)}))""")
            panels.append(panel)
            if any(p["yaku"] for p in panel) and not won_shown:
                # the first win of this run (a file left by an earlier run is replaced)
                won_shown = True
                page.screenshot(path=str(shots / f"hand-result{suffix}.png"))
                # The native names are a setting; English comes back when chosen again.
                page.select_option("#yaku-names", "native")
                assert _CJK.search(page.inner_text("#play-results .yaku"))
                page.select_option("#yaku-names", "en")
                assert not _CJK.search(page.inner_text("#play-results .yaku"))
            page.click("#continue")
            continue
        win = page.query_selector("#actions button.act-hora")
        tiles = page.query_selector_all("#play-table .my-row .tile.playable")
        passing = page.query_selector("#actions button.act-none")
        if win is not None:
            win.click()
        elif tiles:
            # Only legal discards are clickable: every hand tile that is not offered is inert.
            all_tiles = page.query_selector_all("#play-table .my-row .hand .tile")
            assert len(tiles) <= len(all_tiles)
            tiles[rng.below(len(tiles))].click()
        elif passing is not None:
            passing.click()
        else:
            page.wait_for_timeout(30)
            continue
        clicks += 1
    assert clicks > 20 and panels
    _no_sideways_scroll(page, "game over")
    page.screenshot(path=str(shots / f"game-over{suffix}.png"))
    ranking = _texts(page, "#play-final .final-table .who")
    assert sorted(ranking) == ["efficiency 1 (started South)", "efficiency 2 (started West)",
                               "efficiency 3 (started North)", "you (started East)"]
    links = _texts(page, "a.viewer")
    assert links and links[0] == "East 1 on tenhou.net/6"
    href = page.get_attribute("#download-mjai", "href")
    assert href is not None
    body = page.request.get(live_server.url + href).text()
    events = [json.loads(x) for x in body.splitlines()]
    assert events[-1]["type"] == "end_game" and sum(events[-1]["scores"]) == 100_000
    # Every hand's end as the page showed it, against the record: winner by name and seat
    # wind, the yaku in English in the record's order, han and fu.
    labels = ["you", "efficiency 1", "efficiency 2", "efficiency 3"]
    shown = iter(panels)
    oya = bakaze = 0
    wins = 0
    for i, e in enumerate(events):
        if e["type"] == "start_kyoku":
            oya, bakaze = e["oya"], _WINDS.index({"E": "East", "S": "South"}[e["bakaze"]])
        if e["type"] in ("hora", "ryukyoku") and (i == 0 or events[i - 1]["type"] not in ("hora",)):
            panel = next(shown)
        if e["type"] != "hora":
            continue
        result = next(p for p in panel if p["title"].startswith(labels[e["actor"]]))
        wind = (e["actor"] - oya) % 4
        how = "by tsumo" if e["actor"] == e["target"] else f"by ron from {labels[e['target']]}"
        verb = "win" if e["actor"] == 0 else "wins"
        assert result["title"] == f"{labels[e['actor']]} ({_WINDS[wind]}) {verb} {how}"
        assert result["yaku"] == _expected_yaku(e, wind, bakaze)
        assert result["hanfu"].startswith(f"{e['han']} han")
        assert result["deltas"] == [f"{labels[s]} ({_WINDS[(s - oya) % 4]})" for s in range(4)]
        wins += 1
    assert wins >= 1
    assert page.errors == []


def _open_houou(page: Any, live_server: LiveServer, data_dir: Path, folder: Path) -> None:
    src = data_dir / HOUOU
    if not src.exists():
        pytest.skip(f"{HOUOU} not in the data folder")
    (folder / src.name).write_bytes(src.read_bytes())
    page.goto(live_server.url + "/")
    page.click("#tab-replay")
    # Nothing to step through yet: no controls shown, no "0 / 0".
    for dead in ("#replay-controls", "#replay-pos", "#review-this", "#replay-game"):
        assert not page.is_visible(dead), f"{dead} is shown before a record is loaded"
    page.click("#library-box summary")
    page.click(f"#library a:has-text('{src.name}')")
    page.wait_for_selector("#replay-controls:not([hidden])")
    page.wait_for_function("document.querySelector('#replay-pos').textContent.startsWith('2 /')")


def test_replay_and_review_a_houou_record(
    browser: Any, live_server: LiveServer, data_dir: Path, tmp_path: Path, shots: Path
) -> None:
    page = _page(browser)
    _open_houou(page, live_server, data_dir, tmp_path)
    # The first hand's deal: all four hands shown, 13 or 14 tiles each, none face down.
    for seat in range(4):
        tiles = page.query_selector_all(f"#replay-table .seat[data-seat='{seat}'] .hand .tile")
        assert len(tiles) in (13, 14)
        assert all(t.get_attribute("data-tile") != "?" for t in tiles)
    for _ in range(20):
        page.click("#next-event")
    page.wait_for_function("document.querySelector('#replay-pos').textContent.startsWith('22 /')")
    assert page.inner_text("#replay-link") == "East 1 on tenhou.net/6"
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.querySelector('#replay-pos').textContent.startsWith('21 /')")
    page.click("#next-round")
    page.wait_for_function("document.querySelector('#replay-round').selectedIndex === 1")
    for _ in range(40):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("!document.querySelector('#replay-pos').textContent.startsWith('151 /')")
    page.keyboard.press("ArrowUp")  # back to the start of this hand, then to the previous one
    page.wait_for_function("document.querySelector('#replay-pos').textContent.startsWith('151 /')")
    page.keyboard.press("ArrowUp")
    page.wait_for_function("document.querySelector('#replay-round').selectedIndex === 0")
    # The third hand ends in a double ron; its first win is tanyao, dora and three red fives:
    # a mangan, with the names in English although the record writes them in Japanese.
    page.select_option("#replay-round", index=3)
    page.wait_for_function("document.querySelector('#replay-round').selectedIndex === 3")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#replay-results .result .yaku-name")
    first = page.query_selector("#replay-results .result")
    names = [y.text_content() for y in first.query_selector_all(".yaku-name")]
    assert names == ["All simples", "Dora", "Red five"]
    # the winning hand (mjlog does not write it; the table knows it): 14 tiles with the melds
    assert len(first.query_selector_all(".result-hand .tile")) >= 14
    assert first.query_selector(".hanfu").text_content() == "5 han · 30 fu · Mangan"
    assert len(page.query_selector_all("#replay-results .result h3")) == 2
    page.screenshot(path=str(shots / "replay.png"), full_page=True)

    page.click("#review-this")
    page.select_option("#review-player", "1")
    page.select_option("#review-agent", "sl")
    page.click("#review-run")
    page.wait_for_selector("#review-actions tr.chosen", timeout=60_000)
    summary = page.inner_text("#review-summary")
    assert "the sl agent's choice in" in summary and "mean expected loss" in summary
    assert "Worst decisions (largest expected loss)" in summary
    assert "the probability gap" in summary and "100 × (1 − the mean loss)" in summary
    assert re.fullmatch(r"\d+\.\d", page.inner_text("#review-summary .rating-value"))
    probs = page.query_selector_all("#review-actions td.prob .num")
    assert probs, "the sl agent's probabilities are shown"
    # the agent's top moves, most likely first (the played one added when not among them)
    shown = [float(p.text_content().rstrip("%")) for p in probs]
    assert len(shown) <= 6 and shown[:4] == sorted(shown[:4], reverse=True)
    _check_hand_timeline(page)
    assert page.query_selector_all("#review-list li.disagree")
    # Moves read as words: "discard White dragon", "discard red 5p", not "discard P" or "5pr".
    moves = _texts(page, "#review-list li")
    word = r"(\d[mps]|red 5[mps]|East|South|West|North|White dragon|Green dragon|Red dragon)"
    for m in moves:
        assert re.fullmatch(r"(East|South) \d(, \d+ honba)?: .+", m), m
        if ": discard " in m:
            assert re.search(r": discard " + word + r"( \(the drawn tile\))?$", m), m
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / "review.png"), full_page=True)
    assert page.errors == []


def _check_hand_timeline(page: Any) -> None:
    """The Houou game hand by hand: nine hands, each with a result, and a tenhou.net/6 link
    that holds that hand; a click on a hand shows its first decision."""
    from urllib.parse import unquote

    rows = page.query_selector_all("#review-hands tr.hand-row")
    assert len(rows) == 9
    labels = [r.query_selector("td").text_content() for r in rows]
    assert labels[:3] == ["East 1", "East 2, 1 honba", "East 2, 2 honba"]
    results = [r.query_selector("td.result-text").text_content() for r in rows]
    assert results[0] == "draw: no tiles left" and " deals in to " in results[2]
    for label, row in zip(labels, rows):
        href = row.query_selector("a.viewer").get_attribute("href")
        assert href.startswith("https://tenhou.net/6/#json=")
        header = json.loads(unquote(href.split("#json=", 1)[1]))["log"][0][0]
        wind, rest = label.split(" ", 1)
        honba = int(rest.split(", ")[1].split()[0]) if "honba" in rest else 0
        assert header[:2] == [_WINDS.index(wind) * 4 + int(rest.split(",")[0]) - 1, honba]
    rows[4].click()
    page.wait_for_function(
        "document.querySelector('#review-decision').textContent.includes('East 4')")
    assert page.eval_on_selector("#review-hands tr.current", "e => e.dataset.hand") == "4"
    assert page.eval_on_selector("#review-list li.current", "e => e.textContent").startswith(
        "East 4: ")
    link = page.get_attribute("#review-decision a.viewer", "href")
    assert link == rows[4].query_selector("a.viewer").get_attribute("href")


def _arena_file(folder: Path) -> None:
    from tenpai.arena.record import play_scheduled
    from tenpai.arena.schedule import GameKey
    from tenpai.arena.store import ResultsStore, RunConfig

    lineup = ("efficiency", "random", "efficiency", "random")
    options = {"length": "tonpuu", "preset": "tenhou"}
    with ResultsStore(folder / "run.sqlite") as store:
        store.begin_run(RunConfig("riichi", lineup, 1, 1, options))
        store.add_game(play_scheduled("riichi", options, lineup, 1, GameKey(0, 0)))


@pytest.mark.parametrize("width", [360, 390, 414])
def test_every_page_fits_a_phone(
    browser: Any, live_server: LiveServer, data_dir: Path, tmp_path: Path, shots: Path,
    width: int,
) -> None:
    """Play, Replay, Review and Arena, empty and filled, never scroll sideways on a phone."""
    page = _page(browser, width, 800)
    page.goto(live_server.url + "/?speed=0")
    for tab in ("play", "replay", "review", "arena"):
        page.click(f"#tab-{tab}")
        _no_sideways_scroll(page, f"{tab} (empty)")
    _open_houou(page, live_server, data_dir, tmp_path)
    _no_sideways_scroll(page, "replay")
    page.select_option("#replay-round", index=3)
    page.wait_for_function("document.querySelector('#replay-round').selectedIndex === 3")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#replay-results .result .yaku-name")
    _no_sideways_scroll(page, "replay with a hand's results")
    if width == 360:
        page.screenshot(path=str(shots / "replay-phone.png"), full_page=True)
    page.click("#review-this")
    page.select_option("#review-player", "0")
    page.select_option("#review-agent", "efficiency")
    page.click("#review-run")
    page.wait_for_selector("#review-actions tr.chosen", timeout=60_000)
    assert page.is_visible("#review-hands tr.hand-row a.viewer")
    assert page.is_visible("#review-summary .rating-value")
    _no_sideways_scroll(page, "review")
    if width == 360:
        page.screenshot(path=str(shots / "review-phone.png"), full_page=True)
    _arena_file(tmp_path)
    page.click("#tab-arena")
    page.click("#arena-library a:has-text('run.sqlite')")
    page.wait_for_selector("#arena-out .arena-table")
    _no_sideways_scroll(page, "arena")
    page.click("#tab-play")
    page.click("#start")
    page.wait_for_selector("#play-table .my-row .tile.playable", timeout=30_000)
    page.keyboard.press("Enter")  # discard the drawn tile by keyboard
    page.wait_for_function(
        "document.querySelectorAll('#play-table .seat-bottom .river .tile').length >= 1"
    )
    _no_sideways_scroll(page, "play")
    assert page.errors == []


def test_three_player_table_with_chosen_opponents_and_a_move_timer(
    browser: Any, live_server: LiveServer, shots: Path
) -> None:
    """tenhou_sanma seats two opponents on a three-seat table; the think time and the move
    timer are stated; at zero the timer discards the drawn tile for the player."""
    page = _page(browser, 390, 844)
    page.goto(live_server.url + "/?speed=0")
    page.select_option("#rules", "riichi")
    page.select_option("#opt-preset", "tenhou_sanma")
    assert page.is_visible("#opp2") and not page.is_visible("#opp3")
    menu = page.eval_on_selector_all("#opp1 option", "os => os.map(o => o.value)")
    assert {"efficiency", "defensive", "expert"} <= set(menu) and "mcts" not in menu
    page.select_option("#opp1", "defensive")
    page.select_option("#opp2", "efficiency")
    page.select_option("#timer", "5+10")
    help_text = page.inner_text("#opponents-help")
    assert "defensive, efficiency answer at once (no search)" in help_text
    assert "at zero your drawn tile is discarded (or the call passed)" in help_text
    page.click("#start")
    page.wait_for_selector("#play-table .my-row .tile.playable", timeout=30_000)
    zones = page.eval_on_selector_all("#play-table .zone", "els => els.map(e => e.className)")
    assert len(zones) == 3 and not any("seat-top" in z for z in zones)
    assert sorted(_texts(page, "#play-table .plate .name")) == ["defensive", "efficiency", "you"]
    assert re.fullmatch(r"tiles left \d+", page.inner_text("#play-table .center .left"))
    page.wait_for_function("document.querySelector('#actions .clock').textContent === '4 + 10'")
    _no_sideways_scroll(page, "three-player table")
    # nobody clicks: after 5 s and the 10 s bank the drawn tile goes to the river
    # (wait for that toast by its text: on a loaded machine another toast may show first, and
    # the assertion below then names it)
    try:
        page.wait_for_function(
            "document.querySelector('#toast').textContent.startsWith('Time ran out')",
            timeout=25_000)
    except Exception:  # playwright is imported lazily here; its TimeoutError is an Exception
        pytest.fail(f"no time-out toast; the toast says {page.inner_text('#toast')!r}")
    assert page.inner_text("#toast").startswith("Time ran out: discarded ")
    page.wait_for_function(
        "document.querySelectorAll('#play-table .seat-bottom .river .tile').length >= 1")
    # the bank is spent: the next decision counts the move's own 5 s only
    page.wait_for_function(
        "document.querySelector('#actions .clock') && "
        "/^[1-5]$/.test(document.querySelector('#actions .clock').textContent)",
        timeout=30_000)
    page.screenshot(path=str(shots / "play-sanma-phone.png"))
    assert page.errors == []


def test_an_opponent_with_settings_for_its_seat(
    browser: Any, live_server: LiveServer, shots: Path
) -> None:
    """A planner given FAN_WEIGHT=0 in its seat's box plays under that name; an agent without
    settings shows no box; a wrong key is one toast naming the agent's settings."""
    page = _page(browser, 390, 844)
    page.goto(live_server.url + "/?speed=0")
    page.select_option("#rules", "mcr")
    page.select_option("#opp1", "planner")
    page.select_option("#opp2", "efficiency")
    page.select_option("#opp3", "planner")
    assert page.is_visible("#opp1-settings") and not page.is_visible("#opp2-settings")
    assert page.get_attribute("#opp1-settings", "placeholder") == "e.g. FAN_WEIGHT=0"
    page.fill("#opp1-settings", "FAN_WEIGHTS=0")
    page.click("#start")
    page.wait_for_function("document.querySelector('#toast').textContent.includes('no setting')")
    assert "has no setting FAN_WEIGHTS" in page.inner_text("#toast")
    page.fill("#opp1-settings", "FAN_WEIGHT=0")
    _no_sideways_scroll(page, "play setup with settings")
    page.click("#start")
    page.wait_for_selector("#play-table .plate .name", timeout=30_000)
    names = _texts(page, "#play-table .plate .name")
    assert "planner[FAN_WEIGHT=0]" in names and "efficiency" in names
    assert not page.is_visible("#toast")  # the refusal of the first try is gone
    _no_sideways_scroll(page, "a table with a seat's settings")
    page.screenshot(path=str(shots / "play-seat-settings-phone.png"))
    assert page.errors == []
