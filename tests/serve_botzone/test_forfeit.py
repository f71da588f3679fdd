"""``--seat-errors forfeit``: a Botzone seat's first bad answer ends the game as Botzone's judge
ends the match (the offender −30, each other seat +10); ``substitute`` (the default) keeps the
arena's old behaviour to the byte."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import sys
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tenpai.agents import make_agent
from tenpai.arena.games import ArenaConfigError, make_game
from tenpai.arena.runner import make_config
from tenpai.arena.store import ConfigMismatchError, ResultsStore, RunConfig
from tenpai.bench.mcr_score_breakdown import main as breakdown_main
from tenpai.cli.main import app
from tenpai.serve.botzone.external import BotzoneSeat, play_game
from tenpai.serve.mjai.process import live_processes

from .helpers import REPO_SRC

#: A per-turn bot (Botzone's simple interaction) that discards every tile it draws and
#: declares a false ``HU`` on its second draw.
FALSE_WIN = r'''
import sys
n = int(sys.stdin.readline())
lines = [sys.stdin.readline().strip() for _ in range(2 * n - 1)]
requests = lines[0::2]
last = requests[-1].split()
if last[0] != "2":
    print("PASS"); sys.exit(0)
draws = sum(1 for r in requests if r.startswith("2 "))
print("HU" if draws == 2 else "PLAY " + last[1])
'''

SEED = 11
#: The stored result of the 4 games of :func:`_digest`'s run on the code before
#: ``--seat-errors`` existed (commit 3452f52, the default behaviour), the bot's path replaced.
SUBSTITUTE_DIGEST = "060249856bfae0f05cf1ae2974d8bec9ec39e9bbafd688ddec408f2d52329418"


@pytest.fixture(autouse=True)
def _src_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", str(REPO_SRC))


@pytest.fixture
def bot(tmp_path: Path) -> str:
    script = tmp_path / "false_win.py"
    script.write_text(FALSE_WIN, encoding="utf-8")
    return f"botzone:{sys.executable} {script}"


def _arena(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(app, ["arena", "--rules", "mcr", "--workers", "1",
                                   "--no-progress", *args])
    return res.exit_code, res.stdout, res.stderr


def _run(db: Path, bot: str, *extra: str, games: int = 4) -> Any:
    code, out, err = _arena("--preset", "botzone", "--agents",
                            f"efficiency,{bot},efficiency,efficiency", "-n", str(games),
                            "--seed", str(SEED), "--db", str(db), "--json", *extra)
    assert code == 0, err
    return json.loads(out)


def _rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    con = sqlite3.connect(db)
    try:
        return list(con.execute(sql))
    finally:
        con.close()


def _digest(db: Path, bot: str) -> str:
    """Everything a run stores about its games but their times, the bot's command replaced
    (it names a temporary folder)."""
    name = bot.split(":", 1)[1]
    parts = []
    for table, order in (("games", "deal, rotation"), ("seats", "deal, rotation, seat"),
                         ("rounds", "deal, rotation, hand"),
                         ("wins", "deal, rotation, hand, winner"),
                         ("protocol", "deal, rotation, seat, kind")):
        cols = "deal, rotation, wall_seed, hands" if table == "games" else "*"
        parts.append(repr(_rows(db, f"SELECT {cols} FROM {table} ORDER BY {order}")))
    for (blob,) in _rows(db, "SELECT mjai_zlib FROM game_events ORDER BY deal, rotation"):
        assert isinstance(blob, bytes)
        parts.append(zlib.decompress(blob).decode("utf-8"))
    (config,) = _rows(db, "SELECT config FROM run")
    parts.append(str(config[0]))
    text = "\n".join(parts).replace(json.dumps(name)[1:-1], "BOT").replace(name, "BOT")
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _events(blob: object) -> list[dict[str, object]]:
    assert isinstance(blob, bytes)
    return [json.loads(x) for x in zlib.decompress(blob).decode("utf-8").splitlines()]


def test_forfeit_ends_each_game_at_the_false_win(tmp_path: Path, bot: str) -> None:
    db = tmp_path / "forfeit.db"
    data = _run(db, bot, "--seat-errors", "forfeit", games=8)  # two deals: an interval
    seat_agent = bot  # as the arena resolves it: both paths are absolute already
    seats = _rows(db, "SELECT deal, rotation, seat, agent, score, rank FROM seats "
                      "ORDER BY deal, rotation, seat")
    assert len(seats) == 32
    for (deal, rotation) in {(d, r) for d, r, *_ in seats}:
        game = [s for s in seats if (s[0], s[1]) == (deal, rotation)]
        offender = next(s[2] for s in game if s[3] == seat_agent)
        assert [s[4] for s in game] == [-30 if s[2] == offender else 10 for s in game]
        # offender fourth; the others tied on +10, placed by seat as every tie in the arena
        assert [s[5] for s in game if s[2] != offender] == [1, 2, 3]
        assert next(s[5] for s in game if s[2] == offender) == 4
        (outcome, *deltas) = _rows(db, "SELECT outcome, delta0, delta1, delta2, delta3 FROM "
                                       f"rounds WHERE deal = {deal} AND rotation = {rotation}")[0]
        assert outcome == "penalty" and deltas == [s[4] for s in game]
        assert not _rows(db, f"SELECT * FROM wins WHERE deal = {deal} AND rotation = {rotation}")
        # the events stop at the bot's second draw: no discard after it, then the penalty
        (blob,) = _rows(db, "SELECT mjai_zlib FROM game_events WHERE deal = "
                            f"{deal} AND rotation = {rotation}")[0]
        events = _events(blob)
        assert [e["type"] for e in events[-4:]] == ["tsumo", "ryukyoku", "end_kyoku", "end_game"]
        draw, end = events[-4], events[-3]
        assert draw["actor"] == offender
        assert sum(1 for e in events if e["type"] == "tsumo" and e["actor"] == offender) == 2
        assert end["kind"] == "penalty" and end["actor"] == offender
        assert end["deltas"] == deltas and events[-1]["scores"] == deltas
        meta = end["meta"]
        assert isinstance(meta, dict) and meta["error"] == "illegal" and meta["offence"] == "HU"
        (example,) = _rows(db, "SELECT example FROM protocol WHERE kind = 'forfeit' AND deal = "
                               f"{deal} AND rotation = {rotation}")[0]
        assert f"illegal at request {meta['request']} ('2 " in str(example)
    # the arena's own figures agree: per agent, and the paired score difference
    agents = {a["agent"]: a for a in data["agents"]}
    assert agents[seat_agent]["avg_score"]["mean"] == -30
    assert agents["efficiency"]["avg_score"]["mean"] == 10
    (pair,) = data["paired_tests"]
    assert (pair["a"], pair["score_diff"]) in (("efficiency", 40), (seat_agent, -40))
    protocol = data["protocol"][seat_agent]
    assert protocol["forfeits"] == 8 and protocol["errors"] == {"illegal": 8}
    assert data["config"]["seat_errors"] == "forfeit"
    assert not live_processes()


def test_the_reports_read_a_forfeited_run(tmp_path: Path, bot: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "forfeit.db"
    _run(db, bot, "--seat-errors", "forfeit")
    res = CliRunner().invoke(app, ["arena-report", "--db", str(db), "--out",
                                   str(tmp_path / "report")])
    assert res.exit_code == 0, res.stderr
    text = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert "games ended so:" in text and " 4." in text
    breakdown_main([str(db), "--seat-agent", "efficiency"])
    out = capsys.readouterr().out
    shares = {line[2:33].strip(): line[33:].split() for line in out.splitlines()
              if line.startswith("  ") and len(line) > 33}
    assert "another's forfeit" in shares and "own forfeit" in shares
    assert "efficiency: 12 seat-games, score per game +10.00" in out


def test_substitute_stores_what_the_arena_stored_before(tmp_path: Path, bot: str) -> None:
    default, explicit = tmp_path / "default.db", tmp_path / "substitute.db"
    data = _run(default, bot)
    _run(explicit, bot, "--seat-errors", "substitute")
    protocol = data["protocol"]
    (errors,) = [v["errors"] for v in protocol.values()]
    assert errors == {"illegal": 4} and "seat_errors" not in data["config"]
    assert _digest(default, bot) == _digest(explicit, bot) == SUBSTITUTE_DIGEST


@pytest.mark.parametrize(("args", "agents"), [
    (("--preset", "mcr_official"), "efficiency,efficiency,efficiency,efficiency"),
    (("--preset", "botzone"), "efficiency,efficiency,efficiency,efficiency"),
])
def test_forfeit_without_a_botzone_seat_is_refused(args: Sequence[str], agents: str) -> None:
    code, _out, err = _arena(*args, "--agents", agents, "-n", "4", "--seat-errors", "forfeit")
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "--seat-errors forfeit applies" in err


def test_forfeit_under_other_rules_or_presets_is_refused(bot: str) -> None:
    for rules, options in (("mcr", {"preset": "mcr_official"}), ("riichi", {})):
        with pytest.raises(ArenaConfigError):
            make_config(rules, ["efficiency"] * 4, 4, 0, options, seat_errors="forfeit")
    with pytest.raises(ArenaConfigError, match="unknown seat errors"):
        make_config("mcr", ["efficiency"] * 4, 4, 0, {"preset": "botzone"},
                    seat_errors="ignore")
    code, _out, err = _arena("--preset", "mcr_official", "--agents",
                             f"efficiency,{bot},efficiency,efficiency", "-n", "4",
                             "--seat-errors", "forfeit")
    assert code == 2 and len(err.strip().splitlines()) == 1


class _Unsolicited:
    """A bot that follows the match (every request reaches it), discards what it draws and
    answers ``HU`` to the third draw of another player, where only ``PASS`` is allowed."""

    tracking = True

    def ask(self, requests: Sequence[str], responses: Sequence[str]) -> str:
        last = requests[-1].split()
        if last[0] == "2":
            return "PLAY " + last[1]
        others = sum(1 for r in requests if r.startswith("3 ") and r.endswith(" DRAW"))
        return "HU" if last[-1] == "DRAW" and others == 3 else "PASS"

    def close(self) -> None:
        pass


@pytest.mark.parametrize("forfeit", [False, True])
def test_an_unsolicited_answer_forfeits_at_its_own_request(forfeit: bool) -> None:
    game = make_game("mcr", 4, list("abcd"), {"preset": "botzone"})
    seat = BotzoneSeat(0, "u", _Unsolicited(), forfeit=forfeit)
    agents = [None, *(make_agent("efficiency", s) for s in (1, 2, 3))]
    (report,) = play_game(game, agents, {0: seat})
    assert dict(report.errors) == {"unsolicited": 1}
    if not forfeit:
        assert game.done and report.forfeit is None
        return
    assert not game.done and report.forfeit is not None
    f = report.forfeit
    assert (f.kind, f.answer) == ("unsolicited", "HU") and f.text.endswith(" DRAW")
    assert seat.requests[f.request - 1] == f.text
    # the request came from that draw, and the game stopped there: a forfeiting seat hears
    # its pass-only requests at once, not at its next decision (as Botzone asks all four)
    draw = game.events[f.events - 1]
    assert draw.type == "tsumo" and f.text == f"3 {draw.actor} DRAW"
    assert len(game.events) == f.events
    assert f.scores() == (-30, 10, 10, 10)


def test_the_setting_is_part_of_the_stored_run(tmp_path: Path, bot: str) -> None:
    """A run keeps its setting: resuming or pooling it with the other one is refused, and a
    run stored before the setting existed (``substitute``, no key) still resumes."""
    lineup = ["efficiency", bot, "efficiency", "efficiency"]
    forfeit, _ = make_config("mcr", lineup, 4, 0, {"preset": "botzone"}, seat_errors="forfeit")
    substitute, _ = make_config("mcr", lineup, 4, 0, {"preset": "botzone"})
    assert "seat_errors" not in json.loads(substitute.to_json())
    assert RunConfig.from_json(forfeit.to_json()) == forfeit
    with ResultsStore(tmp_path / "run.db") as store:
        store.begin_run(forfeit)
        with pytest.raises(ConfigMismatchError, match="seat_errors: stored 'forfeit'"):
            store.begin_run(substitute)
