"""One meaning per flag, checked over the whole command tree.

The bar is a ``tenpai --help`` that reads well and flags that mean one thing in every command.
These tests walk every command of the typer app (through the click command typer builds) so a
new command or option is held to it without being listed here: every command has a help line,
every option and argument has help text, a long name shared by several commands keeps one type,
one meaning and one short alias, and no two long names spell the same thing.

A shared long name must appear in ``MEANINGS``: adding a command that reuses a flag forces a look
at whether it means the same there.  A few flags used once are pinned there too, so that their
help says what they mean and the next command to take them is held to it.  The intentional
exceptions are listed with their reasons.
Hidden options are deprecated spellings kept for old scripts; they are only checked for help.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
import typer
from typer.core import TyperGroup, TyperOption
from typer.testing import CliRunner

from tenpai.cli.main import app

if TYPE_CHECKING:  # typer vendors click; these are the classes get_command builds
    from typer._click.core import Command, Parameter

#: Each long name used by two or more commands (and a few used once), and a pattern
#: (case-insensitive, searched) that every help text of it must match: the meaning the flag has
#: everywhere.
MEANINGS: dict[str, str] = {
    "--access": r"^feature access",
    "--agent": r"\bagent\b",
    "--agents": r"\bagent",
    "--backend": r"\blocal\b.*\bray\b",
    "--baseline": r"\bsubtracted from each return\b",
    "--batch-size": r"\bper (sgd )?step\b",
    "--block-size": r"^games per block for the blocked stable dan$",
    "--budget-ms": r"^think time per searched decision in ms\b",
    "--checkpoint-minutes": r"^(wall-clock )?minutes between checkpoints",
    "--cpu-minutes": r"\bcpu\b.*\bbudget\b|\bcpu\b.*\bused\b",
    "--db": r"^sqlite results file",
    "--extend": r"^play the run stored in --db on to more games",
    "--estimator": r"^gradient estimator: 'reinforce' .* or 'vine' \(greedy games",
    "--decision-timeout": r"^seconds a client has per decision\b",
    "--deals": r"\bdeals?\b",
    "--encoder": r"\bencoder|gao86e",
    "--eval-deals": r"\bdeals per\b",
    "--eval-every": r"\bbetween\b|\bevery\b",
    "--epochs": r"^most passes over the training split\b",
    "--eval-opponent": r"\bagent\b",
    "--format": r"^record format\b",
    "--games": r"\bgames?\b",
    "--hands": r"\brandom\b.*\bhands\b",
    "--holdout": r"\bheld[- ]out\b|\bkept out\b|\bnever trained on\b",
    "--host": r"\baddress\b|\bhost\b",
    "--idle-timeout": r"^give up after this many seconds without a message\b",
    "--init": r"\bstart\b.*\bmodel\b|\bmodel file\b",
    "--json": r"^(also )?print\b.*\bjson\b",
    "--keep-running": r"\bkeeps?[- ]running\b",
    "--length": r"\btonpuu\b|\bgame length\b",
    "--lr": r"\blearning rate\b",
    "--max-loss": r"^gao's filter",
    "--minutes": r"\bwall-clock budget\b",
    "--model": r"\bmodel\b",
    "--name": r"^player name\b",
    "--opponents": r"\blearner\b",
    "--out": r"\bwrite\b|\bfile\b|\bfolder\b",
    "--patience": r"^stop early after this many dev checks\b.*\bwithout\b",
    "--players": r"\bthree-player\b|\b3\b",
    "--port": r"\bport\b",
    "--profile": r"\bprofile\b",
    "--preset": r"\bpreset\b",
    "--records": r"\bfolder\b.*\brecords\b|\brecords\b.*\bfolder\b",
    "--repeat": r"\binterleaved\b|\btimed passes\b",
    "--reward": r"\breward\b",
    "--room": r"^tenhou lobbies to keep, comma-separated\b",
    "--rules": r"\brule set\b|\brule family\b",
    "--save-records": r"^write (every|each) game\b.*\binto this folder\b",
    "--seat": r"\bseat\b",
    "--seat-errors": r"^what a botzone: seat's bad answer\b.*\bsubstitute\b.*\bforfeit\b",
    "--seed": r"\bseed\b",
    "--simulations": r"\bsimulations per move\b",
    "--size": r"^network size\b",
    "--split": r"\bsplits?\b|\btrain\b.*\bdev\b.*\btest\b",
    "--steps": r"^adam steps\b",
    "--tables": r"\btables?\b",
    "--teacher": r"\bagent\b",
    "--temperature": r"\btemperature\b",
    "--tensorboard": r"^tensorboard log directory \(default: <out>\.tb\)$",
    "--threads": r"^torch cpu threads$",
    "--title": r"^plot title$",
    "--top": r"\blisted\b|\bto list\b",
    "--under-riichi": r"^riichi: also count each agent's discards under another seat's riichi",
    "--unroll": r"^k, ",
    "--value-target": r"\bsign\b.*\bscaled\b",
    "--vine-alternatives": r"^vine: \w+ compared with the greedy one at each branch point",
    "--vine-states": r"^vine: branch points per game\b",
    "--workers": r"\bprocess(es)?\b|\bactors?\b",
}

#: (long name, command): why that command's flag has another type than the rest, or a meaning
#: outside its ``MEANINGS`` pattern.  Keep this short: each entry is a second meaning to learn.
EXCEPTIONS: dict[tuple[str, str], str] = {
    ("--games", "bench process"): "a sweep: the demo game counts to time, comma-separated",
    ("--tables", "bench selfplay"): "a sweep: the table counts to time, comma-separated",
    ("--simulations", "eval search"): "a sweep: the simulation counts of the curve's points",
    ("--init", "train pg"): "also takes 'default' (the shipped weights), so text, not a path",
    ("--model", "eval agreement"): "also takes 'default' (the shipped model), so text",
    ("--model", "eval search"): "also takes 'default'; repeated to compare models on one plot",
    ("--records", "serve"): "repeated: each folder the web app may open records from",
    ("--rules", "verify engines"): "a list of the checker's own rule sets (the Riichi presets "
                                   "and mcr), played in turn",
    ("--holdout", "train dropout"): "a share of the hands (mcts-warm counts its last games)",
    ("--profile", "bench selfplay"): "cProfile's line count of an extra run, where bench "
                                     "efficiency's is an on/off switch of one",
    ("--baseline", "train dropout"): "the paper's Fig. 8 baseline run (p = 0); train pg's is "
                                     "the policy gradient's baseline; both the papers' words",
    ("--reward", "train pg"): "what the reward is (hand or rank); the search trainers' "
                              "switch the reward head on or off",
}

#: Groups of long names that look like one name spelt two ways, or that other tools spell for
#: the same thing; at most one of each group may be visible, unless the group is explained.
SYNONYMS: list[set[str]] = [
    {"--out", "--output", "--output-dir", "--out-dir"},
    {"--games", "--n-games", "--num-games", "--limit", "--max-games"},
    {"--hands", "--n-hands", "--num-hands"},
    {"--format", "--to", "--output-format", "--record-format"},
    {"--save-records", "--save"},
    {"--tables", "--batch"},
    {"--repeat", "--repeats"},
    {"--room", "--rooms"},
    {"--seed", "--seeds"},
    {"--model", "--models"},
    {"--rules", "--ruleset", "--rule-set"},
    {"--workers", "--jobs", "--processes"},
    {"--json", "--as-json"},
    {"--seat-errors", "--on-error", "--errors", "--forfeit", "--penalty"},
]

#: Groups of visible long names that are near-spellings of each other on purpose.
DISTINCT_ON_PURPOSE: dict[frozenset[str], str] = {
    frozenset({"--agent", "--agents"}): "one agent vs a line-up of four",
    frozenset({"--kind", "--kinds"}): "one head to train vs a filter of decision kinds",
    frozenset({"--game", "--games"}): "explain's index of a game in a file vs a count",
    frozenset({"--hand", "--hands"}): "explain's concealed hand (its tiles) vs bench's count of "
                                      "random hands",
    frozenset({"--record", "--records"}): "one record file vs a folder of records",
    frozenset({"--round", "--rounds"}): "explain's round of a game vs bench's timing rounds",
    frozenset({"--turn", "--turns"}): "explain's n-th draw vs bench's count of timed turns",
    frozenset({"--opponent", "--opponents"}): "one agent in three seats vs a line-up mode "
                                              "(self, start, greedy-bots or an agent)",
}


def _walk(cmd: Command, path: tuple[str, ...] = ()) -> Iterator[tuple[str, Command]]:
    yield " ".join(path) or "tenpai", cmd
    if isinstance(cmd, TyperGroup):
        for name, sub in sorted(cmd.commands.items()):
            yield from _walk(sub, (*path, name))


COMMANDS: list[tuple[str, Command]] = list(_walk(typer.main.get_command(app)))


def _options(visible_only: bool = True) -> Iterator[tuple[str, str, TyperOption]]:
    """(command, long name, option) of every option, hidden ones left out unless asked."""
    for name, cmd in COMMANDS:
        for p in cmd.params:
            if isinstance(p, TyperOption) and not (visible_only and p.hidden):
                longs = [o for o in p.opts if o.startswith("--")]
                yield name, max(longs, key=len) if longs else p.opts[0], p


def _by_long_name() -> dict[str, list[tuple[str, TyperOption]]]:
    shared: dict[str, list[tuple[str, TyperOption]]] = defaultdict(list)
    for command, long, opt in _options():
        shared[long].append((command, opt))
    return {k: v for k, v in shared.items() if len({c for c, _ in v}) > 1}


def _kind(p: Parameter) -> str:
    """The value type of a parameter with its bounds left out (an IntRange is an integer)."""
    kind = p.type.name.removesuffix(" range")
    if kind in ("file", "directory"):  # a path type told which kind of path it takes
        kind = "path"
    if getattr(p, "is_flag", False):
        kind = "flag"
    return f"{kind}, repeatable" if p.multiple else kind


def _help(p: Parameter) -> str:
    text = getattr(p, "help", None) or ""
    return re.sub(r"\s+", " ", text).strip().rstrip(".")


def test_the_walk_reaches_the_subcommands() -> None:
    names = {n for n, _ in COMMANDS}
    assert {"arena", "train pg", "eval agreement", "bench arena", "dataset build"} <= names
    assert len(COMMANDS) > 50


@pytest.mark.parametrize("name", [n for n, _ in COMMANDS])
def test_every_command_has_a_help_line(name: str) -> None:
    cmd = dict(COMMANDS)[name]
    assert (cmd.help or "").strip(), f"tenpai {name} has no help text"


def test_every_option_and_argument_has_help() -> None:
    missing = [f"{name}: {p.name}" for name, cmd in COMMANDS for p in cmd.params
               if not _help(p)]
    assert not missing, missing


def test_shared_long_names_are_all_reviewed() -> None:
    assert sorted(set(_by_long_name()) - set(MEANINGS)) == []


def test_shared_long_names_keep_one_type() -> None:
    clashes = []
    for long, uses in sorted(_by_long_name().items()):
        kinds = {c: _kind(o) for c, o in uses if (long, c) not in EXCEPTIONS}
        if len(set(kinds.values())) > 1:
            clashes.append(f"{long}: {kinds}")
    assert not clashes, "\n".join(clashes)


def test_shared_long_names_keep_one_meaning() -> None:
    off = [f"{long} in {c}: {_help(o)!r}"
           for c, long, o in _options() if long in MEANINGS
           if (long, c) not in EXCEPTIONS
           and not re.search(MEANINGS[long], _help(o), re.IGNORECASE)]
    assert not off, "\n".join(off)


def test_every_meaning_is_of_a_visible_flag() -> None:
    """A flag renamed away (now a hidden old spelling) takes its entry with it."""
    assert sorted(set(MEANINGS) - {long for _, long, _ in _options()}) == []


def test_a_long_name_is_a_word() -> None:
    """``--n`` reads as the short ``-n`` (``--games`` in arena): a long name says what it counts."""
    assert sorted({long for _, long, _ in _options() if len(long) < 4}) == []


def test_a_second_seed_says_what_each_one_seeds() -> None:
    """A command with two seeds (``train imitate``: the games' and the training's) names the
    other seed flag in each help, so ``--seed`` is not taken for the seed of the games."""
    seeds: dict[str, dict[str, str]] = defaultdict(dict)
    for command, long, opt in _options():
        if long.endswith("seed"):
            seeds[command][long] = _help(opt)
    unclear = [(command, long) for command, flags in sorted(seeds.items()) if len(flags) > 1
               for long, text in flags.items()
               if not all(other in text for other in flags if other != long)]
    assert not unclear, unclear


def test_exceptions_are_still_needed() -> None:
    """An entry whose flag was renamed or made consistent goes, so the list stays short."""
    shared = _by_long_name()
    stale = []
    for (long, command), reason in EXCEPTIONS.items():
        assert reason
        uses = dict(shared.get(long, []))
        if command not in uses:
            stale.append((long, command))
            continue
        others = {_kind(o) for c, o in uses.items() if c != command}
        if _kind(uses[command]) in others and long in MEANINGS and re.search(
                MEANINGS[long], _help(uses[command]), re.IGNORECASE):
            stale.append((long, command))
    assert not stale, stale


def test_a_short_alias_means_one_long_name() -> None:
    longs_of: dict[str, set[str]] = defaultdict(set)
    shorts_of: dict[str, set[str]] = defaultdict(set)
    for _, long, opt in _options():
        for o in opt.opts:
            if not o.startswith("--"):
                longs_of[o].add(long)
                shorts_of[long].add(o)
    assert {s: ls for s, ls in longs_of.items() if len(ls) > 1} == {}
    assert {ln: ss for ln, ss in shorts_of.items() if len(ss) > 1} == {}


def _stem(long: str) -> str:
    return "-".join(w.removesuffix("s") for w in long.split("-"))


def test_no_two_long_names_for_one_thing() -> None:
    visible = {long for _, long, _ in _options()}
    near: dict[str, set[str]] = defaultdict(set)
    for long in visible:
        near[_stem(long)].add(long)
    groups = [frozenset(g) for g in near.values() if len(g) > 1]
    groups += [frozenset(g & visible) for g in SYNONYMS if len(g & visible) > 1]
    unexplained = sorted(sorted(g) for g in set(groups) if g not in DISTINCT_ON_PURPOSE)
    assert not unexplained, unexplained
    assert set(DISTINCT_ON_PURPOSE) <= set(groups), "an entry of DISTINCT_ON_PURPOSE is stale"


def test_hidden_options_are_old_spellings() -> None:
    """A hidden option is a deprecated spelling kept for old scripts, and says of what."""
    hidden = [(c, long, _help(o)) for c, long, o in _options(visible_only=False) if o.hidden]
    assert hidden
    for command, long, text in hidden:
        assert re.fullmatch(r"Deprecated spelling of --[a-z-]+", text), (command, long, text)


def test_root_help_lists_every_command_with_its_line() -> None:
    res = CliRunner().invoke(app, ["--help"])
    assert res.exit_code == 0
    for name, _ in COMMANDS:
        if " " not in name and name != "tenpai":
            assert name in res.output


@pytest.mark.parametrize(("args", "note", "then"), [
    (["tenhou-table", "--rules", "nope"], "--rules is deprecated; use --preset",
     "unknown rules 'nope'"),
    (["explain", "--models", "/nonexistent.json", "x.mjlog"],
     "--models is deprecated; use --opponent-models", ""),
    (["arena", "--agents", "random,random,random,random", "-n", "4", "-o", "oops"],
     "-o is deprecated; use --option", "KEY=VALUE"),
    (["convert", "a.mjlog", "b.json", "--to", "xml"], "--to is deprecated; use --format",
     "--format must be one of mjai"),
])
def test_renamed_flags_keep_their_old_spelling(args: list[str], note: str, then: str) -> None:
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 2, res.output
    assert note in res.stderr and then in res.stderr, res.stderr


@pytest.mark.parametrize(("args", "clash"), [
    (["tenhou-table", "--preset", "tenhou", "--rules", "tenhou_sanma"],
     "--preset tenhou and --rules tenhou_sanma"),
    (["tenhou-table", "--save-records", "a", "--save", "b"], "--save-records a and --save b"),
    (["train", "opponent-models", "x", "--out", "m.json", "--room", "houou", "--rooms", "any"],
     "--room houou and --rooms any"),
    (["train", "placement-model", "x", "--out", "m.json", "--room", "houou", "--rooms", "any"],
     "--room houou and --rooms any"),
    (["bench", "process", "--repeat", "2", "--repeats", "3"], "--repeat 2 and --repeats 3"),
    (["bench", "rollout", "--playouts", "2", "--seeds", "3"], "--playouts 2 and --seeds 3"),
    (["bench", "hand", "--hands", "100", "--n", "200"], "--hands 100 and --n 200"),
    (["bench", "hand", "--shanten-hands", "100", "--shanten-n", "200"],
     "--shanten-hands 100 and --shanten-n 200"),
    (["bench", "fan", "--hands", "100", "--n", "200"], "--hands 100 and --n 200"),
    (["bench", "scoring", "--hands", "100", "--n", "200"], "--hands 100 and --n 200"),
    (["bench", "scoring", "--slow-hands", "100", "--n-slow", "200"],
     "--slow-hands 100 and --n-slow 200"),
    (["convert", "a.mjlog", "b.json", "--format", "mjai", "--to", "mjlog"],
     "--format mjai and --to mjlog"),
    (["train", "pg", "--out", "m.pt", "--games", "5", "--max-games", "6"],
     "--games 5 and --max-games 6"),
    (["train", "pg-planner", "--out", "w.json", "--games", "5", "--max-games", "6"],
     "--games 5 and --max-games 6"),
    (["tenhou-table", "--decision-timeout", "5", "--timeout", "6"],
     "--decision-timeout 5.0 and --timeout 6.0"),
    (["tenhou-client", "--agent", "random", "--idle-timeout", "5", "--timeout", "6"],
     "--idle-timeout 5.0 and --timeout 6.0"),
    (["explain", "--opponent-models", "a.json", "--models", "b.json"],
     "--opponent-models a.json and --models b.json"),
])
def test_old_and_new_spelling_that_disagree_are_refused(args: list[str], clash: str) -> None:
    """Checked before any work: each of these would otherwise start a server, a fit or a bench."""
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 2
    assert f"{clash} disagree" in res.stderr, res.stderr
