"""Real-browser tests: headless Debian chromium driven by Playwright against a live server.

They click what a person clicks: a whole Riichi East-only game (the test picks the discards),
a real Houou record opened from the records folder and stepped through, and a review of it.
Screenshots go to a temporary folder, or to $TENPAI_WEB_SHOTS (docs/img/web refreshes them).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tenpai.engine.wall import SplitMix64

from .helpers import HOUOU, LiveServer

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _page(browser: Any, width: int = 1280, height: int = 800) -> Any:
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def test_play_a_whole_tonpuu_game_by_clicking(
    browser: Any, live_server: LiveServer, shots: Path
) -> None:
    page = _page(browser)
    page.goto(live_server.url + "/?speed=0")
    page.select_option("#rules", "riichi")
    page.select_option("#opt-length", "tonpuu")
    for sel in ("#opp1", "#opp2", "#opp3"):
        page.select_option(sel, "efficiency")
    page.fill("#seed", "11")
    page.click("#start")
    page.wait_for_selector("#play-table .seat-bottom .tile.playable", timeout=30_000)
    page.screenshot(path=str(shots / "play.png"))
    rng = SplitMix64(11)
    clicks = results = 0
    deadline = time.monotonic() + 150
    while not page.is_visible("#review-played"):
        assert time.monotonic() < deadline, "the game did not finish in time"
        if page.is_visible("#continue"):
            if results == 0:
                page.screenshot(path=str(shots / "hand-result.png"))
            results += 1
            page.click("#continue")
            continue
        win = page.query_selector("#actions button.act-hora")
        tiles = page.query_selector_all("#play-table .seat-bottom .tile.playable")
        passing = page.query_selector("#actions button.act-none")
        if win is not None:
            win.click()
        elif tiles:
            # Only legal discards are clickable: every hand tile that is not offered is inert.
            all_tiles = page.query_selector_all("#play-table .seat-bottom .hand .tile")
            assert len(tiles) <= len(all_tiles)
            tiles[rng.below(len(tiles))].click()
        elif passing is not None:
            passing.click()
        else:
            page.wait_for_timeout(30)
            continue
        clicks += 1
    assert clicks > 20 and results >= 1
    page.screenshot(path=str(shots / "game-over.png"))
    rows = page.query_selector_all("#play-final .final-table tr")
    assert len(rows) == 4
    href = page.get_attribute("#download-mjai", "href")
    assert href is not None
    body = page.request.get(live_server.url + href).text()
    events = [json.loads(x) for x in body.splitlines()]
    assert events[-1]["type"] == "end_game" and sum(events[-1]["scores"]) == 100_000
    assert page.query_selector("a.viewer") is not None
    assert page.errors == []


def _open_houou(page: Any, live_server: LiveServer, data_dir: Path, folder: Path) -> None:
    src = data_dir / HOUOU
    if not src.exists():
        pytest.skip(f"{HOUOU} not in the data folder")
    (folder / src.name).write_bytes(src.read_bytes())
    page.goto(live_server.url + "/")
    page.click("#tab-replay")
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
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.querySelector('#replay-pos').textContent.startsWith('21 /')")
    page.click("#next-round")
    page.wait_for_function("document.querySelector('#replay-round').selectedIndex === 1")
    for _ in range(40):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("!document.querySelector('#replay-pos').textContent.startsWith('151 /')")
    page.screenshot(path=str(shots / "replay.png"))
    page.keyboard.press("ArrowUp")  # back to the start of this hand, then to the previous one
    page.wait_for_function("document.querySelector('#replay-pos').textContent.startsWith('151 /')")
    page.keyboard.press("ArrowUp")
    page.wait_for_function("document.querySelector('#replay-round').selectedIndex === 0")

    page.click("#review-this")
    page.select_option("#review-player", "1")
    page.select_option("#review-agent", "sl")
    page.click("#review-run")
    page.wait_for_selector("#review-actions tr.chosen", timeout=60_000)
    summary = page.inner_text("#review-summary")
    assert "agrees with player 1" in summary and "Largest disagreements" in summary
    probs = page.query_selector_all("#review-actions td.prob .num")
    assert probs, "the sl agent's probabilities are shown"
    assert page.query_selector_all("#review-list li.disagree")
    page.screenshot(path=str(shots / "review.png"))
    assert page.errors == []


def test_phone_viewport_shows_the_table(
    browser: Any, live_server: LiveServer, data_dir: Path, tmp_path: Path, shots: Path
) -> None:
    page = _page(browser, 390, 844)
    _open_houou(page, live_server, data_dir, tmp_path)
    box = page.query_selector("#replay-table").bounding_box()
    assert box is not None and box["width"] <= 390
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 400, "the page scrolls sideways on a phone"
    page.screenshot(path=str(shots / "replay-phone.png"))
    page.click("#tab-play")
    page.click("#start")
    page.wait_for_selector("#play-table .seat-bottom .tile.playable", timeout=30_000)
    page.keyboard.press("Enter")  # discard the drawn tile by keyboard
    page.wait_for_function(
        "document.querySelectorAll('#play-table .seat-bottom .river .tile').length >= 1"
    )
    page.screenshot(path=str(shots / "play-phone.png"))
    assert page.errors == []
