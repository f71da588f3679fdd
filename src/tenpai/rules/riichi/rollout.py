"""Compiled rollouts (``_rollout.c``): a Riichi hand played to its end inside C.

Search wants thousands of complete hands per decision, and the Python engine spends about
80 µs of Python per decision.  ``_rollout.c`` holds the state of one hand and plays it out with
a built-in policy in every seat; this module hands it a :class:`RiichiRound`'s state
(:func:`export_state`) and its rules (:func:`rules_tuple`) and reads the packed results back
(:func:`run`).  The Python engine stays the specification: the policies are those of
:class:`tenpai.search.policies.FastPolicy` (``fast``/``fast-fold`` with its calls,
``fast-kan``/``fast-kan-fold`` with calls and kans, ``greedy``/``greedy-fold`` without), and
``tests/search/test_compiled_playout.py`` and ``tests/search/test_compiled_kans.py`` play the
same worlds on both sides.

What the core plays: draws, discards, riichi (deposit, ippatsu, double riichi), tsumo and ron
with the yaku requirement (the compiled scorer of ``_score.c``, shared through
``_score_core.h``), the three kinds of furiten, haitei/houtei, tenhou/chiihou, several rons on
one discard (and the triple-ron abort where the preset has it), the exhaustive draw with
tenpai payments and nagashi mangan, four riichi, four winds, and a four-kan abort the state
already owes.  Chi and pon (policies ``fast`` and ``fast-fold`` only): the claim window after
the rons (a win takes the tile first, then a pon beats a chi), the discard after the call
without a draw under the preset's kuikae bans, ippatsu and the first go-around
(double riichi, tenhou/chiihou, four winds) ended by any call, the called flag in the river
(nagashi mangan broken), open hands scored without the closed-only yaku, and pao when a pon
completes the dragons or the winds (an open kan included).  Kans (policies ``fast-kan`` and
``fast-kan-fold`` only), as ``RiichiRound`` plays them: closed kans (in riichi only where the
waits stay), added kans and open kans on a discard, each followed by a replacement draw from
the dead wall that shortens the live wall (so haitei comes earlier; at three players the
replacements past the dead wall's four are the live wall's last tiles), rinshan kaihou, a
closed kan's dora shown at once and an open or added kan's at the next discard or kan (as the
preset's ``open_kan_dora_after_discard`` says), the rob window (chankan on an added kan; on a
closed kan only a ready kokushi, where ``kokushi_robs_ankan`` allows; the missed tile's
furiten), every ippatsu and the first go-around ended, pao when an open kan completes the
dragons or the winds (the engine has no pao for a rinshan win after an open kan), at most four
kans, and the four-kan abort when they are not all one player's.  Three players: a North set
aside (``nukidora``) under the same rule, robbed by an ordinary ron, then a replacement draw.
Not played: the nine-terminals draw, and the ``efficiency`` policy's calls, kans and Norths.
A state is exported at a draw (phase ``act``), a discard's claim window (phase ``claim``) or
the discard owed after a chi or pon (phase ``discard``, with its kuikae bans);
:func:`export_state` refuses the others (the discard after a riichi declaration, a kan's
rob window: :func:`exportable`).

Policies: ``tsumogiri`` (wins when it can, otherwise discards the drawn tile; in a state
exported at the discard after a call, where there is none, it discards as ``greedy``), ``greedy``
(:class:`FastPolicy`'s shanten-greedy choice), ``greedy-random`` (the same with seeded random
ties), ``greedy-fold`` (folds against riichi), ``fast`` and ``fast-fold`` (``greedy`` and
``greedy-fold`` that chi and pon exactly when ``EfficiencyAgent._claim`` would: the shanten
after the call drops and a yaku stays in reach; ``fast-fold`` passes every call while another
seat is in riichi), ``fast-kan`` and ``fast-kan-fold`` (``fast`` and ``fast-fold`` that also
declare a kan or set a North aside when the hand after it is no worse: shanten no higher, at
equal shanten no fewer live effective tiles; an open kan also needs a pon's yaku in reach;
``fast-kan-fold`` declares none while another seat is in riichi) and ``efficiency`` (the
``efficiency`` agent's discard and riichi choice: :func:`decide` equals the agent position by
position; the agent's calls, closed kans and Norths set aside are not played).
``passive`` is ``tsumogiri`` without the wins: it discards what it drew and never wins, calls,
declares riichi or a kan -- the opponents of the search's one-player leaf
(:mod:`tenpai.search.passive`, whose ``PassivePolicy`` is its Python reference), given per seat
beside the searched seat's policy.

``TENPAI_PURE_PYTHON=1`` (or a missing build) leaves :func:`available` False; :func:`run`
then raises :class:`RolloutUnavailable` with the build command.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from tenpai import native
from tenpai.hand.accel import table_buffers
from tenpai.rules.riichi.compiled import yaku_table
from tenpai.rules.riichi.ruleset import PRESETS, RiichiRules

if TYPE_CHECKING:
    from tenpai.rules.riichi.flow.round import RiichiRound

__all__ = [
    "ABI",
    "COLUMNS",
    "KINDS",
    "POLICY_CODES",
    "YAKU_RULES",
    "RolloutStateError",
    "RolloutUnavailable",
    "available",
    "decide",
    "export_state",
    "exportable",
    "policy_codes",
    "rules_tuple",
    "run",
    "run_rows",
    "unavailable_reason",
]

#: The extension's ``ABI`` this side is written for (``_rollout.c``).
ABI: Final = 7
#: Policy names and their codes in the extension.
POLICY_CODES: Final = {"tsumogiri": 0, "greedy": 1, "greedy-random": 2, "greedy-fold": 3,
                       "efficiency": 4, "fast": 5, "fast-fold": 6, "fast-kan": 7,
                       "fast-kan-fold": 8, "passive": 9}
#: The open-hand yaku rule of the discards (:func:`tenpai.search.policies.yaku_avoid`): off,
#: ``strict`` (the kinds it names are kept out while the hand holds any other) or ``ties``
#: (only among the discards of the best shanten).
YAKU_RULES: Final = {"off": 0, "strict": 1, "ties": 2}
#: Result columns of :func:`run` (one row per playout; scores and deltas padded to four seats).
COLUMNS: Final = ("kind", "winners", "tenpai", "code", "kyotaku",
                  "score0", "score1", "score2", "score3",
                  "delta0", "delta1", "delta2", "delta3")
#: The ``kind`` column's values.
KINDS: Final = ("hora", "exhaustive", "abortive")
#: The ``code`` column's values: how an abortive hand ended, or nagashi mangan at a draw.
CODES: Final = ("", "four_riichi", "four_winds", "four_kans", "triple_ron", "nine_terminals",
                "nagashi_mangan")
_MELD_CODES: Final = {"chi": 0, "pon": 1, "daiminkan": 2, "kakan": 3, "ankan": 4}
_KUIKAE: Final = {"none": 0, "same_tile": 1, "strict": 2}
#: The core's phase codes: a draw's decision, a discard's claim window, the discard owed
#: after a chi or pon.
_PHASES: Final = {"act": 0, "claim": 1, "discard": 2}


class RolloutStateError(ValueError):
    """A state the core cannot hold (a fifth copy, a hand of the wrong size, a phase the
    compiled policies never reach, an unknown preset)."""


class RolloutUnavailable(RuntimeError):
    """The compiled rollout core is not built (or ``TENPAI_PURE_PYTHON`` is set)."""


_NAME: Final = "tenpai.rules.riichi._rollout"


def _load() -> Any | None:
    module = native.load(_NAME, ABI)
    if module is None or tuple(module.yaku_ids()) != yaku_table():
        return None  # a yaku added on one side only: the scorer core is not the specification
    module.configure(*table_buffers())
    module.set_error(RolloutStateError)
    return module


_core: Final = native.Core(
    "the compiled rollout core", _NAME, ABI, RolloutUnavailable, _load()
)
#: True when the compiled rollout core is built and in use.
available = _core.available
#: Why the core is not in use (switched off, not built, stale build) and the build command.
unavailable_reason = _core.unavailable_reason
_need = _core.need


@lru_cache(maxsize=32)
def _rules_tuple(rules: RiichiRules) -> tuple[int, ...]:
    ids = [y[0] for y in _need().yaku_ids()]
    yakuman = [bool(y[3]) for y in _need().yaku_ids()]
    pao = 0
    for i, (yid, ym) in enumerate(zip(ids, yakuman)):
        if ym and yid in rules.pao_yakuman:
            pao |= 1 << i
    renhou = {"off": 0, "mangan": 1, "yakuman": 2}[rules.renhou]
    return (
        rules.players, int(rules.red_fives != 0), int(rules.open_tanyao),
        int(rules.kazoe_yakuman), int(rules.kiriage_mangan), int(rules.double_yakuman_variants),
        int(rules.yakuman_stacking), rules.double_wind_pair_fu, renhou,
        int(rules.pao_scope == "whole_hand"), rules.honba_points, rules.riichi_deposit,
        pao & 0x7FFFFFFF, pao >> 31,
        int(rules.abortive_draws), int(rules.double_ron), int(rules.triple_ron_abort),
        int(rules.nagashi_mangan), rules.riichi_min_points, rules.riichi_min_wall_tiles,
        rules.noten_penalty, int(rules.karaten == "hand_and_melds"),
        _KUIKAE[rules.kuikae], int(bool(rules.pao_yakuman)),
        int(rules.open_kan_dora_after_discard), int(rules.kokushi_robs_ankan),
        int(rules.four_kan_abort), int(rules.nukidora), ABI,
    )


def rules_tuple(rules: RiichiRules | str) -> tuple[int, ...]:
    """The flags the core reads, from a rule set or a preset name."""
    if isinstance(rules, str):
        if rules not in PRESETS:
            raise RolloutStateError(
                f"unknown Riichi preset {rules!r}; known: {', '.join(sorted(PRESETS))}")
        rules = PRESETS[rules]
    if not isinstance(rules, RiichiRules):
        raise RolloutStateError(f"rules must be a RiichiRules or a preset name, got {rules!r}")
    # Hashing a frozen dataclass of forty fields costs more than a short playout's set-up:
    # remember the few rule objects a process uses by identity (kept alive by the dict).
    hit = _BY_ID.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    t = _rules_tuple(rules)
    if len(_BY_ID) > 64:
        _BY_ID.clear()
    _BY_ID[id(rules)] = (rules, t)
    return t


_BY_ID: dict[int, tuple[RiichiRules, tuple[int, ...]]] = {}


def export_state(rnd: RiichiRound) -> tuple[Any, ...]:
    """The round's state as the core reads it (field order: ``_rollout.c``'s ``S_*``).

    Phases ``act`` (the player to move has just drawn), ``claim`` (a discard's claim window)
    and ``discard`` after a chi or pon (the kuikae bans go along) are exported.  The core
    never starts from the others (the discard after a riichi declaration, a kan's rob
    window): the caller steps those in Python (:func:`exportable` says which).
    """
    if not exportable(rnd):
        raise RolloutStateError(
            "a rollout starts at a draw, a claim window or the discard after a call, not in "
            f"phase {rnd.phase!r}" + (" after a riichi declaration"
                                      if rnd.phase == "discard" else ""))
    if rnd.phase == "act" and rnd.drawn is None:
        raise RolloutStateError("phase act without a drawn tile")
    if rnd.phase == "claim" and rnd.last_discard is None:
        raise RolloutStateError("phase claim without a discard")
    wall = rnd.wall
    n = rnd.players
    claim = rnd.phase == "claim"
    phase = _PHASES[rnd.phase]
    turn = rnd.last_discard[0] if claim and rnd.last_discard is not None else rnd.turn
    return (
        n, rnd.bakaze, rnd.oya, rnd.honba, rnd.kyotaku, tuple(rnd.scores),
        tuple(wall.live[wall._next:wall._end]), tuple(wall.dora), tuple(wall.ura),
        len(rnd.dora_markers), rnd.pending_dora,
        tuple(tuple(h) for h in rnd.hands),
        -1 if claim or rnd.drawn is None else rnd.drawn,
        turn, int(rnd.after_kan), phase,
        tuple(tuple((_MELD_CODES[m.type], tuple(m.tiles)) for m in ms) for ms in rnd.melds),
        tuple(len(x) for x in rnd.nukidora),
        tuple(tuple(r) for r in rnd.rivers),
        tuple(tuple(int(c) for c in rc) for rc in rnd.river_called),
        tuple(rnd.discards_made), int(rnd.any_call),
        tuple(int(x) for x in rnd.riichi), tuple(int(x) for x in rnd.double_riichi),
        tuple(int(x) for x in rnd.ippatsu), tuple(int(x) for x in rnd.furiten_temp),
        tuple(int(x) for x in rnd.furiten_riichi),
        tuple(-1 if p is None else p for p in rnd.pao),
        -1 if rnd.reach_pending is None else rnd.reach_pending,
        tuple(rnd.kans_by), tuple(wall.rinshan[wall._kans:]), wall.replacements_left,
        tuple(rnd.banned_discards) if phase == 2 else (),
    )


def exportable(rnd: RiichiRound) -> bool:
    """Whether :func:`export_state` takes the round as it stands (see there)."""
    if rnd.phase == "discard":
        return rnd.reach_pending is None
    return rnd.phase in ("act", "claim")


def run(
    state: tuple[Any, ...],
    rules: RiichiRules | str,
    policies: str | Sequence[str],
    seeds: Sequence[int],
    first_discard: int | None = None,
    *,
    indicators: bool = False,
    yaku: str = "off",
) -> np.ndarray:
    """Play the state's hand once per seed; one int32 row per seed (:data:`COLUMNS`).

    ``policies`` is one name for every seat or one per seat (:data:`POLICY_CODES`).  The same
    state, policies and seed give the same row, bit for bit.  ``first_discard`` (a tile code,
    phase ``act`` only) is the discard the player to move makes before the policies take over:
    a searched candidate played without a Python step.  ``indicators`` adds a last column:
    the dora indicators shown when the hand ended (kans turn more), for the tests.  ``yaku``
    (:data:`YAKU_RULES`) adds the open-hand yaku rule to every seat's discards
    (:func:`tenpai.search.policies.yaku_avoid` is its reference).
    """
    module = _need()
    # one name for every seat: as many as the state says (the core checks the count itself)
    players = state[0] if isinstance(state, tuple) and state and state[0] in (3, 4) else 4
    first = -1 if first_discard is None else int(first_discard)
    raw = module.run(state, rules_tuple(rules), policy_codes(policies, players),
                     [int(s) for s in seeds], first, indicators, _yaku_code(yaku))
    return np.frombuffer(raw, dtype=np.int32).reshape(-1, len(COLUMNS) + int(indicators))


def policy_codes(policies: str | Sequence[str], players: int) -> tuple[int, ...]:
    """The core's codes of ``policies`` (one name for every one of ``players`` seats, or one
    name per seat), as :func:`run` and :func:`run_rows` take them."""
    names = [policies] * players if isinstance(policies, str) else list(policies)
    try:
        return tuple(POLICY_CODES[p] for p in names)
    except KeyError as err:
        raise RolloutStateError(
            f"unknown rollout policy {err.args[0]!r}; known: {', '.join(POLICY_CODES)}"
        ) from None


def run_rows(state: tuple[Any, ...], flags: tuple[int, ...], codes: tuple[int, ...],
             seeds: list[int], first_discard: int = -1, yaku: int = 0) -> list[list[int]]:
    """:func:`run` for a caller that plays many states under the same rules and policies (the
    search: a few candidates per world, many worlds per decision): the rules, the policies
    and the yaku rule already in the core's terms (:func:`rules_tuple`, :func:`policy_codes`,
    :data:`YAKU_RULES`), worked out once instead of per call, ``seeds`` a list of ints,
    ``first_discard`` -1 for none, and the rows as lists of ints (:data:`COLUMNS`), which a
    caller reading every field of a row reads faster than an array's.  The same state,
    codes and seeds give the rows :func:`run` gives (the core checks what it is handed)."""
    raw = _need().run(state, flags, codes, seeds, first_discard, False, yaku)
    rows: list[list[int]] = np.frombuffer(raw, dtype=np.int32).reshape(
        -1, len(COLUMNS)).tolist()
    return rows


def _yaku_code(rule: str) -> int:
    if rule not in YAKU_RULES:
        raise RolloutStateError(f"unknown yaku rule {rule!r}; known: {', '.join(YAKU_RULES)}")
    return YAKU_RULES[rule]


def decide(state: tuple[Any, ...], rules: RiichiRules | str, policy: str,
           yaku: str = "off") -> tuple[str, int]:
    """A compiled policy's answer at a draw (phase ``act``) or at the discard owed after a
    call, without playing on: ``("hora", tile)``, ``("dahai", tile)``, ``("reach", tile)``
    (riichi with that discard), and for the kan policies ``("ankan", tile)`` (its lowest
    code), ``("kakan", tile)`` (the tile added) or ``("nukidora", tile)``; ``yaku`` as for
    :func:`run`."""
    module = _need()
    if policy not in POLICY_CODES:
        raise RolloutStateError(
            f"unknown rollout policy {policy!r}; known: {', '.join(POLICY_CODES)}")
    action, tile = module.decide(state, rules_tuple(rules), POLICY_CODES[policy],
                                 _yaku_code(yaku))
    return ("hora", "dahai", "reach", "ankan", "kakan", "nukidora")[action], int(tile)
