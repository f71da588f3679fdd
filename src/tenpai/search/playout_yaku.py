"""Do the playouts lose open hands' yaku?  ``python -m tenpai.search.playout_yaku``.

The playout policies check for a yaku only when they call; afterwards their discards are
shanten-greedy.  A call candidate's playout may therefore carry the open hand to a ready shape
that cannot win for lack of a yaku, which would make the search undervalue every call.  This
module measures how often that happens, with no change to any policy.

Method: seeded tonpuu games are played by one agent in every seat (``pg`` by default).  At
every offer to chi or pon (with a pass beside it) the offered seat, the prior's likeliest chi or
pon and the pass are kept, as the search with ``TENPAI_SEARCH_CALL_OFFERS=1`` would weigh
them.  For each offer, worlds are sampled from that seat's view as the search samples them
(:class:`~tenpai.search.worlds.WorldSampler`, uniform opponents, ready riichi hands), and
both answers are played to the end of the hand with the Python reference of the playout policy
(``greedy-fold`` by default) while :func:`seat_watch` follows the offered seat; the compiled
twin (``c:greedy-fold``) plays the same world and answer and must give the same hand end.

Each playout ends, for the offered seat, in one of four ways (:class:`SeatEnd`): it **won**; it
ended **ready with a yaku** (some wait wins by ron or tsumo with a yaku, leaving out the luck
of the last tile, rinshan and ippatsu); **ready without a yaku** (no wait does); or **not
ready**.  Apart from these, a playout **missed a win for lack of a yaku** when the seat drew a
tile completing its hand and had no win on offer, or another seat discarded one of its waits
while it was not furiten and it could not ron.  Figures are grouped by the answer: the call
(an open hand), the pass of a closed hand (the baseline) and the pass of a hand that was open
already.  ``--yaku strict`` or ``--yaku ties`` plays every seat with the open-hand yaku rule
(``TENPAI_SEARCH_PLAYOUT_YAKU``, :func:`tenpai.search.policies.yaku_avoid`) to see what it
changes; the figures are in docs/search_runs.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from tenpai.argtypes import positive_int
from tenpai.engine.flow import Decision
from tenpai.engine.snapshot import clone
from tenpai.engine.table import KIND
from tenpai.events import Event
from tenpai.hand import is_complete
from tenpai.rules.riichi import rollout
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.flow.types import WinRequest
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import PRESETS
from tenpai.search.budget import decision_seed
from tenpai.search.compiled_playout import CompiledPlayout
from tenpai.search.hand_end import hand_end
from tenpai.search.playout import PythonPlayout
from tenpai.search.prior import Prior
from tenpai.search.worlds import WorldSampler

__all__ = ["GROUPS", "Offer", "SeatEnd", "call_offers", "figures", "main", "play_offers",
           "seat_end", "seat_watch", "wins_with_a_yaku"]

#: The figures' groups: the call, the pass of a closed hand, the pass of an open hand.
GROUPS = ("call", "pass_closed", "pass_open")


@dataclass(frozen=True, slots=True)
class Offer:
    """An offer to call met in a seeded game: a copy of the table, the seat and its answers."""

    table: RiichiRound
    seat: int
    call: Event
    passing: Event
    #: The seat had an open meld before the offer.
    open_before: bool


@dataclass(frozen=True, slots=True)
class SeatEnd:
    """How one playout ended for the followed seat (module docstring)."""

    won: bool
    ready_yaku: bool
    ready_no_yaku: bool
    missed_for_yaku: bool
    #: The seat's hand was open at the end.
    open: bool


def _is_open(rnd: RiichiRound, seat: int) -> bool:
    return any(m.is_open for m in rnd.melds[seat])


def wins_with_a_yaku(rnd: RiichiRound, seat: int, kind: int) -> bool:
    """Whether ``seat`` would have a yaku winning on ``kind`` by ron or by tsumo, with its
    riichi but none of the luck of the moment (last tile, rinshan, chankan, ippatsu, first
    turn): the yaku its hand holds, not the one the wall may give it."""
    hand = (*rnd.hands[seat], kind)
    for tsumo in (False, True):
        req = WinRequest(
            seat=seat, target=seat if tsumo else (seat + 1) % rnd.players, hand=hand,
            melds=tuple(rnd.melds[seat]), win_tile=kind, tsumo=tsumo,
            seat_wind=rnd.seat_wind(seat), round_wind=27 + rnd.bakaze, dealer=rnd.oya,
            riichi=rnd.riichi[seat], double_riichi=rnd.double_riichi[seat],
            dora_markers=tuple(rnd.dora_markers), nukidora=len(rnd.nukidora[seat]))
        if rnd.scorer(req, rnd.rules) is not None:
            return True
    return False


def seat_watch(seat: int) -> tuple[Callable[[RiichiRound, Sequence[Decision],
                                              Mapping[int, Event]], None], list[bool]]:
    """A watch for :meth:`~tenpai.search.playout.PythonPlayout.play_out_watched` and the flag
    it sets when ``seat`` misses a win for lack of a yaku: a drawn tile completes its hand and
    no win is on offer, or another seat's discard is one of its waits, it is not furiten and
    the round would not let it ron (the round's own test, the last tile's houtei included)."""
    missed = [False]

    def watch(rnd: RiichiRound, pending: Sequence[Decision],
              answers: Mapping[int, Event]) -> None:
        if missed[0]:
            return
        for d in pending:
            if (d.seat == seat and rnd.phase == "act" and rnd.turn == seat
                    and rnd.drawn is not None and is_complete(rnd.counts[seat])
                    and not any(e.type == "hora" for e in d.legal)):
                missed[0] = True
                return
        e = answers.get(rnd.turn)
        if (rnd.phase == "act" and rnd.turn != seat and e is not None and e.type == "dahai"
                and e.pai is not None and KIND[e.pai] in rnd.waits_of(seat)
                and not rnd._furiten(seat)
                and not rnd.rules_allow_win_on(seat, e.pai, rnd.turn)):
            missed[0] = True

    return watch, missed


def seat_end(rnd: RiichiRound, seat: int, missed: bool) -> SeatEnd:
    """The :class:`SeatEnd` of ``seat`` in the finished round ``rnd``."""
    result = rnd.result
    assert result is not None, "the round has not ended"
    won = result.kind == "hora" and seat in result.winners
    ready = (not won and len(rnd.hands[seat]) % 3 == 1 and rnd.is_tenpai(seat))
    held = list(rnd.counts[seat])
    for m in rnd.melds[seat]:
        for t in m.tiles:
            held[KIND[t]] += 1
    # a wait whose four copies the seat holds itself (hand or melds) is no winning tile
    yaku = ready and any(wins_with_a_yaku(rnd, seat, w) for w in rnd.waits_of(seat)
                         if held[w] < 4)
    return SeatEnd(won, ready and yaku, ready and not yaku, missed, _is_open(rnd, seat))


def call_offers(
    seeds: Sequence[int], agent: Any, prior: Prior, *,
    length: Literal["tonpuu", "hanchan"] = "tonpuu",
    min_wall: int = 4, limit: int | None = None,
) -> list[Offer]:
    """The offers to chi or pon of seeded games played by ``agent`` in every seat (game seed
    ``s`` for each ``s`` of ``seeds``, Tenhou rules, ``length``), with at least ``min_wall``
    tiles left, at most ``limit`` of them; the call kept is ``prior``'s likeliest chi or pon."""
    rules = dataclasses.replace(PRESETS["tenhou"], length=length)
    out: list[Offer] = []
    for s in seeds:
        game = RiichiGame(rules, seed=s)
        while not game.done:
            pending = game.pending()
            rnd = game.round
            for d in pending:
                if rnd is None or rnd.wall.remaining < min_wall:
                    break
                passing = next((e for e in d.legal if e.type == "none"), None)
                if passing is None or not any(e.type in ("chi", "pon") for e in d.legal):
                    continue
                (pa,) = prior.answer_batch([(d.observation, d.legal)])
                call = next((c.action for c in pa.candidates
                             if c.action.type in ("chi", "pon")), None)
                if call is None:
                    call = next(e for e in d.legal if e.type in ("chi", "pon"))
                out.append(Offer(clone(rnd), d.seat, call, passing, _is_open(rnd, d.seat)))
                if limit is not None and len(out) >= limit:
                    return out
            game.step({d.seat: agent.act(d.observation, d.legal) for d in pending})
    return out


#: What :func:`play_offers` counts in each group.
_COUNTS = ("playouts", "won", "ready_yaku", "ready_no_yaku", "not_ready", "missed_for_yaku",
           "no_yaku_any", "open_at_end")


def _group(answer: str, open_before: bool) -> str:
    if answer == "call":
        return "call"
    return "pass_open" if open_before else "pass_closed"


def play_offers(
    offers: Sequence[Offer], worlds: int, policy: str = "greedy-fold", seed: int = 0,
    compiled: bool = True, yaku: str = "off",
) -> dict[str, Any]:
    """Every offer played out on ``worlds`` worlds with both answers: the counts by group
    (:data:`GROUPS`) and how many hand ends the compiled twin ``c:<policy>`` matched (None
    when the compiled core is not built or ``compiled`` is false); ``yaku`` is the open-hand
    yaku rule of the playouts (:func:`tenpai.search.policies.yaku_avoid`)."""
    python = PythonPlayout(policy, yaku=yaku)
    twin = None
    if compiled and rollout.available():
        twin = CompiledPlayout(policy, yaku=yaku)
    sampler = WorldSampler()
    counts = {g: dict.fromkeys(_COUNTS, 0) for g in GROUPS}
    equal = compared = 0
    for o in offers:
        for i in range(worlds):
            t = o.table
            ws = decision_seed(seed, t.hand_index, len(t.events), o.seat, i)
            world = sampler.sample(t, o.seat, ws).round
            for name, answer in (("call", o.call), ("pass", o.passing)):
                watch, missed = seat_watch(o.seat)
                end = python.play_out_watched(world, {o.seat: answer}, ws, watch)
                se = seat_end(end, o.seat, missed[0])
                c = counts[_group(name, o.open_before)]
                c["playouts"] += 1
                c["won"] += se.won
                c["ready_yaku"] += se.ready_yaku
                c["ready_no_yaku"] += se.ready_no_yaku
                c["not_ready"] += not (se.won or se.ready_yaku or se.ready_no_yaku)
                c["missed_for_yaku"] += se.missed_for_yaku
                c["no_yaku_any"] += se.missed_for_yaku or se.ready_no_yaku
                c["open_at_end"] += se.open
                if twin is not None:
                    compared += 1
                    equal += twin.play_out(world, {o.seat: answer}, ws) == hand_end(
                        end, tuple(world.scores))
    return {"counts": counts, "compiled_equal": equal if twin is not None else None,
            "compiled_compared": compared if twin is not None else None}


def figures(counts: Mapping[str, Mapping[str, int]]) -> dict[str, dict[str, float]]:
    """Shares of each group's playouts (module docstring): won, ready with and without a
    yaku, not ready, missed a win for lack of one, and ``no_yaku_any``: ready without a yaku
    at the end or missed a win for lack of one (a playout counted once)."""
    out: dict[str, dict[str, float]] = {}
    for g, c in counts.items():
        n = max(1, c["playouts"])
        out[g] = {k: round(c[k] / n, 4) for k in ("won", "ready_yaku", "ready_no_yaku",
                                                   "not_ready", "missed_for_yaku",
                                                   "no_yaku_any")}
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m tenpai.search.playout_yaku",
                                 description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--seed", type=int, default=38970, help="first game seed")
    ap.add_argument("--games", type=positive_int, default=10,
                    help="games whose call offers are collected (default %(default)s)")
    ap.add_argument("--worlds", type=positive_int, default=8,
                    help="worlds per offer (default %(default)s)")
    ap.add_argument("--max-offers", type=positive_int, default=None,
                    help="play at most this many of the kept offers (default: all)")
    ap.add_argument("--every", type=positive_int, default=1,
                    help="keep every n-th offer (default %(default)s)")
    ap.add_argument("--agent", choices=("pg", "efficiency"), default="pg",
                    help="the agent of the games, and the prior of the call kept")
    ap.add_argument("--policy", default="greedy-fold", help="Python playout policy")
    ap.add_argument("--yaku", choices=("off", "strict", "ties"), default="off",
                    help="the open-hand yaku rule of the playouts (TENPAI_SEARCH_PLAYOUT_YAKU)")
    args = ap.parse_args(argv)
    from tenpai.search.prior import AgentPrior, NetworkPrior

    if args.agent == "pg":
        from tenpai.agents.pg import PGAgent

        agent: Any = PGAgent()
        prior: Prior = NetworkPrior(PGAgent())
    else:
        from tenpai.agents.efficiency import EfficiencyAgent

        agent = EfficiencyAgent(args.seed)
        prior = AgentPrior(EfficiencyAgent(args.seed))
    cpu0 = time.process_time()
    offers = call_offers(range(args.seed, args.seed + args.games), agent, prior)
    kept = offers[::args.every][:args.max_offers]
    played = play_offers(kept, args.worlds, args.policy, seed=args.seed, yaku=args.yaku)
    print(json.dumps({
        "seed": args.seed, "games": args.games, "agent": args.agent, "policy": args.policy,
        "yaku_rule": args.yaku,
        "offers": len(offers), "offers_played": len(kept), "worlds": args.worlds,
        **played, "shares": figures(played["counts"]),
        "cpu_seconds": round(time.process_time() - cpu0, 1),
    }))


if __name__ == "__main__":
    main()
