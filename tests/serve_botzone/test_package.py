"""``tenpai botzone-package``: what goes into the upload, and that the zip runs on its own."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tenpai.arena.games import ArenaConfigError
from tenpai.arena.runner import make_config
from tenpai.serve.botzone.package import PackageError, build_package, check_package

DEAL = "1 0 0 0 0 W1 W2 W3 W5 W6 B2 B3 B4 T7 T8 T9 F1 F1"


def test_rule_agent_package_is_code_only_and_runs_isolated(tmp_path: Path) -> None:
    built = build_package("efficiency", tmp_path / "pkg", keep_running=False)
    names = zipfile.ZipFile(built.zip_path).namelist()
    assert "__main__.py" in names and "tenpai/serve/botzone/bot.py" in names
    assert not any(n.endswith((".pt", ".so")) or "__pycache__" in n for n in names)
    assert built.model is None and (tmp_path / "pkg" / "UPLOAD.txt").is_file()
    p = subprocess.run([sys.executable, "-I", str(built.zip_path)],
                       input="\n".join(["3", "0 0 1", "PASS", DEAL, "PASS", "2 J2"]) + "\n",
                       capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert (p.returncode, p.stdout, p.stderr) == (0, "PLAY J2\n", "")


def test_network_agent_package_carries_its_model_beside_the_zip(tmp_path: Path) -> None:
    built = build_package("pg_mcr", tmp_path / "pkg")
    assert built.model is not None and built.model.parent.name == "data"
    assert built.model.name == "pg_mcr_default.pt"
    main = zipfile.ZipFile(built.zip_path).read("__main__.py").decode()
    assert "TENPAI_PG_MCR_MODEL" in main and "KEEP_RUNNING = True" in main


def test_settings_in_brackets_are_baked_into_the_bot(tmp_path: Path) -> None:
    built = build_package("planner[ claims=0.3 ]", tmp_path / "pkg", keep_running=False)
    assert built.agent == "planner[CLAIMS=0.3]"
    main = zipfile.ZipFile(built.zip_path).read("__main__.py").decode()
    assert "AGENT = 'planner[CLAIMS=0.3]'" in main
    assert '"agent": "planner[CLAIMS=0.3]"' in (tmp_path / "pkg" / "agent.json").read_text()
    p = subprocess.run([sys.executable, "-I", str(built.zip_path)],
                       input="\n".join(["3", "0 0 1", "PASS", DEAL, "PASS", "2 J2"]) + "\n",
                       capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert (p.returncode, p.stderr) == (0, "")
    assert p.stdout.startswith("PLAY ") and p.stdout.count("\n") == 1


@pytest.mark.parametrize(("agent", "says"), [
    ("planner[NO_SUCH=1]", "has no setting NO_SUCH"),
    ("planner[CLAIMS=many]", "CLAIMS"),
    ("efficiency[X=1]", "takes no settings"),
    ("planner[CLAIMS=0.3", "never closed|one pair of brackets"),
])
def test_bad_settings_are_refused_before_anything_is_written(tmp_path: Path, agent: str,
                                                              says: str) -> None:
    with pytest.raises(PackageError, match=says):
        build_package(agent, tmp_path / "pkg")
    assert not (tmp_path / "pkg").exists()


@pytest.mark.parametrize(("agent", "says"), [("sl", "plays riichi"), ("nobody", "unknown")])
def test_bad_agents_are_refused(tmp_path: Path, agent: str, says: str) -> None:
    with pytest.raises(PackageError, match=says):
        build_package(agent, tmp_path / "pkg")


def test_a_model_for_a_rule_agent_is_refused(tmp_path: Path) -> None:
    with pytest.raises(PackageError, match="takes no model"):
        build_package("efficiency", tmp_path / "pkg", model=tmp_path / "x.pt")


@pytest.mark.slow
def test_check_plays_a_game_with_the_package(tmp_path: Path) -> None:
    assert check_package(build_package("efficiency", tmp_path / "pkg")) is None


def test_arena_takes_botzone_seats_for_the_botzone_preset_only() -> None:
    seat = f"botzone:{sys.executable} -c pass"
    config, _ = make_config("mcr", [seat, "efficiency", "efficiency", "efficiency"], 4, 0,
                            {"preset": "botzone"})
    assert config.agents[0].startswith("botzone:/")
    with pytest.raises(ArenaConfigError, match="preset=botzone"):
        make_config("mcr", [seat, "efficiency", "efficiency", "efficiency"], 4, 0, {})
    with pytest.raises(ArenaConfigError, match="does not exist"):
        make_config("mcr", ["botzone:./no/such/bot", "efficiency", "efficiency", "efficiency"],
                    4, 0, {"preset": "botzone"})


def _old_python() -> str | None:
    """Some Python older than 3.11 on this machine (Botzone's pages describe 3.6)."""
    import glob
    import shutil

    for v in ("3.6", "3.7", "3.8", "3.9", "3.10"):
        candidates = [*sorted(glob.glob(f"/root/.pyenv/versions/{v}*/bin/python{v}")),
                      shutil.which(f"python{v}")]
        for found in candidates:
            if found and subprocess.run([found, "-c", "pass"], capture_output=True,
                                        timeout=30).returncode == 0:
                return found
    return None


def test_under_an_old_python_the_package_answers_safely(tmp_path: Path) -> None:
    old = _old_python()
    if old is None:
        pytest.skip("no Python older than 3.11 here")
    built = build_package("efficiency", tmp_path / "pkg")
    # the input stays open (a kept-running bot's would): the history is read line by line
    proc = subprocess.Popen([old, str(built.zip_path)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.write("\n".join(["3", "0 0 1", "PASS", DEAL, "PASS", "2 J2"]) + "\n")
    proc.stdin.flush()
    try:
        assert proc.stdout.readline() == "PLAY J2\n"
        assert proc.wait(30) == 0
        assert "needs 3.11" in proc.stderr.read()
    finally:
        proc.kill()
        proc.wait()


def test_the_greedy_bot_runs_on_an_old_python() -> None:
    old = _old_python()
    if old is None:
        pytest.skip("no Python older than 3.11 here")
    bot = Path(__file__).resolve().parents[2] / "src" / "tenpai" / "bench" / "botzone_greedy_bot.py"
    p = subprocess.run([old, str(bot)], input="\n".join(
        ["3", "0 0 1", "PASS", DEAL, "PASS", "2 J2"]) + "\n", capture_output=True, text=True,
        timeout=60)
    assert (p.returncode, p.stdout, p.stderr) == (0, "PLAY J2\n", "")
