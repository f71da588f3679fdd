"""Action values of the original game from the one-player MDPs (001 §V, §VI-B) and the player.

* shanten <= 1 (after the action): eq. 16, the value of Inclusive Policy Solitary Mahjong
  after the action, with the immediate deal-in of eq. 4 folded into each discard's Q;
* shanten 2-3: eq. 17, sum over the five scenarios of P(scenario) x value, with the scenario
  probabilities assembled from Winning / Tenpai / Folding Solitary Mahjong (eq. 18);
* above: the rule-based fallback of 001 §VII (isolated tiles out, or fold by the FS order
  when an opponent is in riichi).

Calls (chi / pon) are valued the same way from the hand after the call; riichi is an action
of the MDP (a discard into the riichi chain).  Every number shown by ``tenpai explain`` comes
from :class:`ActionValue`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.hand import ukeire
from tenpai.mdp.chain import solitary_probs
from tenpai.mdp.env import Environment
from tenpai.mdp.folding import solve_folding
from tenpai.mdp.scorer import HandContext, win_points
from tenpai.mdp.settings import SearchTooLargeError, Settings
from tenpai.mdp.solver import Payoffs, build_edges, solve
from tenpai.mdp.space import build_space, shanten_of
from tenpai.reading.models import OpponentModels
from tenpai.reading.table import TableState, table_from_events

__all__ = ["ActionValue", "Decision", "choose", "evaluate_decision", "scenario_lose"]


@dataclass(slots=True)
class ActionValue:
    """One legal action's value and the terms behind it (for ``tenpai explain``)."""

    action: Event
    value: float
    method: str
    terms: dict[str, float] = field(default_factory=dict)


@dataclass(slots=True)
class Decision:
    values: list[ActionValue]
    shanten: int
    states: int = 0
    notes: list[str] = field(default_factory=list)

    def best(self) -> ActionValue:
        return max(self.values, key=lambda v: v.value)


def _hand_context(obs: Any, counts: list[int], state: TableState) -> HandContext:
    melds = tuple((m.type, tuple(T.kind_of(t) for t in m.tiles)) for m in obs.melds[obs.seat])
    red = tuple(any(t == T.red_of(f) for t in obs.hand) for f in (4, 13, 22))
    return HandContext(
        melds=melds, seat_wind=27 + (obs.seat - state.oya) % 4, round_wind=27 + state.bakaze,
        dora_indicators=tuple(state.dora_markers), red=(red[0], red[1], red[2]),
        dealer=obs.seat == state.oya,
    )


class _Mdp:
    """One MDP family (IPS, WS or TS) solved over one hand space for one decision."""

    def __init__(self, env: Environment, ctx: HandContext, roots: list[bytes], bound: int,
                 mode: str, horizon: int, settings: Settings) -> None:
        self.env, self.ctx, self.mode = env, ctx, mode
        drawable = env.unseen
        self.space = build_space(roots, bound, drawable, settings.max_states)
        self.edges = build_edges(self.space, drawable)
        u = np.array(env.draw_probs())
        self.u = u
        n = len(self.space.hands)
        riichi_ok = ctx.closed and env.state.wall >= 4 and env.state.scores[env.seat] >= 1000
        ura = settings.ura_han
        ra: np.ndarray | None = None
        rb: np.ndarray | None = None
        if mode == "ips":
            lose = np.array(env.lose)
            o = env.other_win
            self.a = lose * np.array(env.lose_value) + (1 - lose) * o * env.other_value
            self.b = (1 - lose) * (1 - o)
            fl, fo = settings.riichi_fold_factors
            if (fl, fo) != (1.0, 1.0):
                # 001 §VI-E: after the player's riichi the others tend to fold, so the chance
                # that a tsumogiri deals in and the chance that another player wins are scaled
                # inside the riichi chain.
                lr, orr = lose * fl, o * fo
                ra = lr * np.array(env.lose_value) + (1 - lr) * orr * env.other_value
                rb = (1 - lr) * (1 - orr)
        else:
            self.a = np.zeros(34)
            self.b = np.ones(34)
        cache: dict[tuple[int, int, bool, bool], float] = {}

        def points(i: int, c: int, tsumo: bool) -> tuple[float, float]:
            h = bytearray(self.space.hands[i])
            h[c] += 1
            return win_points(bytes(h), c, tsumo, ctx, ura)

        def tsumo(i: int, c: int, riichi: bool) -> float:
            key = (i, c, riichi, True)
            if key not in cache:
                dama, rp = points(i, c, True)
                pts = rp if riichi else dama
                if pts <= 0:
                    cache[key] = float("nan")
                elif mode == "ips":
                    cache[key] = env.win_payoff(int(pts), True, riichi)
                elif mode == "ws":
                    cache[key] = 1.0
                else:
                    cache[key] = float("nan")
            return cache[key]

        tenpai = self.edges.tenpai
        ron_chance = np.zeros(n)
        ron_value = np.zeros(n)
        rc_r = np.zeros(len(tenpai))
        rv_r = np.zeros(len(tenpai))
        washout = np.zeros(n)
        washout_r = np.zeros(len(tenpai))
        if mode == "ips":
            washout[:] = env.washout_noten
            washout[np.array(self.space.shanten) == 0] = env.washout_tenpai
            washout_r[:] = env.washout_tenpai
        elif mode == "ts":
            washout[np.array(self.space.shanten) == 0] = 1.0
        scale = settings.ron_chance_scale
        if mode in ("ips", "ws"):
            for t, i in enumerate(tenpai):
                for riichi in (False, True):
                    w = 0.0
                    v = 0.0
                    for c in np.nonzero(self.edges.tenpai_waits[t])[0]:
                        if u[c] <= 0:
                            continue
                        dama, rp = points(int(i), int(c), False)
                        pts = rp if riichi else dama
                        if pts <= 0:
                            continue
                        w += u[c]
                        v += u[c] * (env.win_payoff(int(pts), False, riichi) if mode == "ips"
                                     else 1.0)
                    chance = 1 - (1 - min(1.0, scale * w)) ** 3 if w > 0 else 0.0
                    value = v / w if w > 0 else 0.0
                    if riichi:
                        rc_r[t], rv_r[t] = chance, value
                    else:
                        ron_chance[i], ron_value[i] = chance, value
        shift = 0.0
        if mode == "ips":
            shift = env.payoff([-1000 if s == env.seat else 0 for s in range(4)], False) - \
                env.payoff([0, 0, 0, 0], False)
        self.pay = Payoffs(u, self.a, self.b, tsumo if mode != "ts" else None, ron_chance,
                           ron_value, rc_r, rv_r, washout, washout_r, shift,
                           riichi_ok and mode == "ips", ra, rb)
        self.horizon = horizon
        self.solution = solve(self.space, self.edges, self.pay, horizon)

    def q(self, hand: bytes, kind: int, draws_left: int, riichi: bool = False) -> float:
        if hand not in self.space.index:
            return float("nan")
        return self.solution.after_discard(self.space, self.edges, hand, kind, self.a, self.b,
                                           draws_left, riichi)

    def c_value(self, hand: bytes, draws_left: int) -> float:
        i = self.space.index[hand]
        return float(self.solution.c[min(draws_left, self.horizon), i])


def _bytes_minus(counts: Sequence[int], *kinds: int) -> bytes:
    w = bytearray(counts)
    for k in kinds:
        w[k] -= 1
    return bytes(w)


def evaluate_decision(obs: Any, legal: Sequence[Event], models: OpponentModels,
                      settings: Settings) -> Decision:
    """Values of every legal action at this decision (see the module docstring)."""
    state = table_from_events(obs.events)
    counts = list(obs.counts)
    env = Environment.build(obs.seat, state, counts, models, settings)
    ctx = _hand_context(obs, counts, state)
    types = {e.type for e in legal}
    if "dahai" in types or "reach" in types:
        return _own_turn(obs, legal, env, ctx, counts, settings)
    return _claim(obs, legal, env, ctx, counts, settings)


def choose(dec: Decision, obs: Any, settings: Settings) -> Event | None:
    """The greedy action of a decision (``None`` when nothing has a finite value).

    Exact ties between discards (the shanten chain gives two isolated tiles the same value)
    go to the efficiency order: more live effective tiles after the discard, then honours and
    terminals before 2/8 before middle tiles, red fives last; otherwise the first listed.
    """
    finite = [v for v in dec.values if math.isfinite(v.value)]
    if not finite:
        return None
    top = max(v.value for v in finite)
    tied = [v for v in finite if v.value >= top - 1e-12]
    if len(tied) == 1 or not settings.efficiency_ties or any(
            v.action.type != "dahai" or v.action.pai is None for v in tied):
        return tied[0].action
    counts = list(obs.counts)
    visible = obs.visible_counts()

    def key(v: ActionValue) -> tuple[int, int]:
        pai = v.action.pai
        assert pai is not None
        k = T.kind_of(pai)
        counts[k] -= 1
        live = ukeire(counts, visible).total
        counts[k] += 1
        edge = 0 if T.is_terminal_or_honor(k) else (1 if T.number_of(k) in (2, 8) else 2)
        return (-live, edge + (1 if T.is_red(pai) else 0))

    return min(tied, key=key).action


def _draws_left(env: Environment) -> int:
    return max(0, env.state.wall // 4)


def _own_turn(obs: Any, legal: Sequence[Event], env: Environment, ctx: HandContext,
              counts: list[int], settings: Settings) -> Decision:
    kinds = sorted({k for k in range(34) if counts[k]})
    after = {k: _bytes_minus(counts, k) for k in kinds}
    sh_after = {k: shanten_of(b) for k, b in after.items()}
    best_sh = min(sh_after.values())
    draws = _draws_left(env)
    out: list[ActionValue] = []
    dec = Decision(out, best_sh)
    hora = next((e for e in legal if e.type == "hora"), None)
    if hora is not None:
        dama, rp = win_points(bytes(counts), T.kind_of(hora.pai) if hora.pai is not None
                              else kinds[0], True, ctx, settings.ura_han)
        riichi_now = state_in_riichi(env)
        pts = rp if riichi_now else dama
        v = env.win_payoff(int(max(pts, 1000)), True, False)
        out.append(ActionValue(hora, v, "win (eq. 3)", {"points": float(pts)}))
    discards = [e for e in legal if e.type == "dahai"]
    reach = next((e for e in legal if e.type == "reach"), None)
    if best_sh <= 1:
        mdp = _ips(env, ctx, list(after.values()), best_sh, settings, draws, dec)
        for e in discards:
            assert e.pai is not None
            k = T.kind_of(e.pai)
            q = mdp.q(after[k], k, draws) if mdp is not None else float("nan")
            terms = {"deal_in": env.lose[k], "deal_in_value": env.lose_value[k],
                     "other_win": env.other_win, "shanten_after": float(sh_after[k])}
            if math.isnan(q):
                q = _far_value(env, ctx, after[k], k, settings, draws, terms)
                out.append(ActionValue(e, q, "eq. 17 (outside the IPS space)", terms))
                continue
            fold = root_fold_value(env, after[k], k, settings, draws)
            terms["ips"] = q
            if fold is not None:
                terms["fold"] = fold
            if fold is not None and fold > q:
                out.append(ActionValue(e, fold, "IPS with the FS fold at the root", terms))
            else:
                out.append(ActionValue(e, q, "IPS (eq. 16)", terms))
        if reach is not None and mdp is not None:
            qs = [(mdp.q(after[k], k, draws, riichi=True), k) for k in kinds if sh_after[k] == 0]
            qs = [(q, k) for q, k in qs if not math.isnan(q)]
            if qs:
                q, k = max(qs)
                out.append(ActionValue(reach, q, "IPS riichi chain", {"discard_after": float(k)}))
            else:
                out.append(ActionValue(reach, -math.inf, "IPS riichi chain", {}))
    elif best_sh <= settings.fallback_shanten - 1:
        # Without eq. 18's calibration the shanten chain cannot compare hands of different
        # shanten (it rated wide but farther hands too well: docs/mdp_search.md), so while
        # nobody is in riichi only discards that keep the best shanten are ranked by eq. 17.
        keep = settings.far_keep_shanten and not _threatened(env)
        for e in discards:
            assert e.pai is not None
            k = T.kind_of(e.pai)
            terms = {"deal_in": env.lose[k], "shanten_after": float(sh_after[k])}
            v = _far_value(env, ctx, after[k], k, settings, draws, terms)
            if keep and sh_after[k] > best_sh:
                terms["eq17_value"] = v
                out.append(ActionValue(e, -math.inf, "rule: keep shanten (no riichi)", terms))
            else:
                out.append(ActionValue(e, v, "eq. 17", terms))
        if reach is not None:
            out.append(ActionValue(reach, -math.inf, "riichi needs tenpai", {}))
    else:
        out.extend(_fallback(obs, legal, env, counts, settings, sh_after))
    for e in legal:
        if e.type in ("ankan", "kakan"):
            out.append(_kan_value(e, counts, kinds, sh_after, out))
        elif e.type not in ("dahai", "reach", "hora"):
            out.append(ActionValue(e, -math.inf, "not searched", {}))
    return dec


def root_fold_value(env: Environment, hand: bytes, kind: int, settings: Settings,
                    draws: int) -> float | None:
    """The value of discarding ``kind`` and folding from then on: the root discard's own
    ``a + b * FS(hand)``, FS (eq. 13) over at most ``draws`` further discards.

    IPS's policy includes folding (001 §VI-A1), but the searched space only holds hands on short
    paths to tenpai: a discard that breaks the hand leaves a root with no exchanges, whose
    future is drawing and throwing back random tiles, each with its deal-in risk; that is not
    folding, which throws back the safest tiles already held.  So the root may also switch to
    the FS policy.  ``None`` when ``Settings.root_fold`` is off or nobody is in riichi.
    """
    if not settings.root_fold or not _threatened(env):
        return None
    fold = solve_folding(list(hand), env.lose, settings.fold_end_probability, env.lose_value,
                         env.other_value, draws)
    lose, o = env.lose[kind], env.other_win
    a = lose * env.lose_value[kind] + (1 - lose) * o * env.other_value
    return float(a + (1 - lose) * (1 - o) * fold.value)


def _threatened(env: Environment) -> bool:
    """Whether another player is in riichi (the situations where folding is on the table)."""
    return any(env.state.in_riichi(s) for s in range(4) if s != env.seat)


def state_in_riichi(env: Environment) -> bool:
    return env.state.in_riichi(env.seat)


def _ips(env: Environment, ctx: HandContext, roots: list[bytes], sh: int, settings: Settings,
         draws: int, dec: Decision) -> _Mdp | None:
    """IPS over the space of ``roots``, with one exchange fewer if the space is too large."""
    for extra in range(settings.extra_exchanges[min(max(sh, 0), 1)], -1, -1):
        try:
            mdp = _Mdp(env, ctx, roots, max(sh, 0) + extra, "ips", draws, settings)
            dec.states = len(mdp.space.hands)
            return mdp
        except SearchTooLargeError as err:
            dec.notes.append(str(err))
    return None


def scenario_lose(now: float, push: float, fold: float, after_discard: bool = True) -> float:
    """Eq. 17's P(lose) of an action: ``now`` = deal-in of the tile thrown now, ``push`` =
    deal-in over the rest of the hand when pushing, ``fold`` = FS's P_FL of the hand left.

    FS is solved on the hand *after* the discard, so the discard's own risk comes first and
    the rest is the better of pushing or folding: ``now + (1 - now) * max(push, fold)``.  The
    first version took ``max(now + (1 - now) * push, fold)``, where a folding risk of the rest
    larger than the discard's hid the discard's risk (a 4.6 % tile then looked as good as a
    2.5 % one; ``after_discard=False`` keeps it for comparison).
    """
    if after_discard:
        return now + (1 - now) * max(push, fold)
    return max(now + (1 - now) * push, fold)


def _far_value(env: Environment, ctx: HandContext, hand: bytes, kind: int | None,
               settings: Settings, draws: int, terms: dict[str, float]) -> float:
    """Eq. 17: five scenarios, probabilities from WS, TS and FS (eq. 18), values from the env.

    ``kind`` is the tile the action discards now (``None`` for a pass: nothing is thrown)."""
    horizon = max(1, round(env.ratio * draws))
    p_w, p_t = solitary_probs(hand, env.unseen, horizon, settings.typical_ukeire,
                              settings.chain_measured_levels)
    fold = solve_folding(list(hand), env.lose, settings.fold_end_probability, env.lose_value,
                         env.other_value, horizon)
    o_total = 1 - (1 - env.other_win) ** horizon
    # Deal-in while pushing: each future discard risks the average danger of the hand's tiles.
    held = [k for k in range(34) if hand[k]]
    mean_risk = sum(env.lose[k] for k in held) / max(1, len(held))
    now = env.lose[kind] if kind is not None else 0.0
    later = 1 - (1 - mean_risk) ** (horizon * p_w)
    p_lose = scenario_lose(now, later, fold.p_lose, settings.far_lose_after_discard)
    p_win = (1 - p_lose) * p_w * (1 - o_total / 2)
    p_other = (1 - p_lose - p_win) * o_total
    rest = max(0.0, 1 - p_lose - p_win - p_other)
    p_ten = min(1.0, p_t)
    v_win = _mean_win_value(env)
    v_lose = fold.value_if_lose if fold.p_lose > 0 else env.lose_value[kind or 0]
    value = (p_win * v_win + p_lose * v_lose + p_other * env.other_value
             + rest * (p_ten * env.washout_tenpai + (1 - p_ten) * env.washout_noten))
    terms.update({"p_win": p_win, "p_lose": p_lose, "p_other": p_other, "p_washout": rest,
                  "p_W": p_w, "p_T": p_t, "P_FL": fold.p_lose, "V_win": v_win, "V_lose": v_lose})
    return float(value)


def _mean_win_value(env: Environment) -> float:
    """Payoff of a typical win of the deciding player (2,000 points non-dealer, 2,900 dealer;
    used where the hand is too far from ready to know its value)."""
    pts = 2900 if env.seat == env.state.oya else 2000
    return 0.5 * env.win_payoff(pts, True, False) + 0.5 * env.win_payoff(pts, False, False)


def _fallback(obs: Any, legal: Sequence[Event], env: Environment, counts: list[int],
              settings: Settings, sh_after: dict[int, int]) -> list[ActionValue]:
    """001 §VII's rules for hands more than three from ready: an isolated tile out to lower
    shanten, or, when an opponent is in riichi, the folding order of FS."""
    from tenpai.agents.efficiency import best_discard

    discards = [e for e in legal if e.type == "dahai"]
    threatened = any(env.state.in_riichi(s) for s in range(4) if s != env.seat)
    if threatened:
        fold = solve_folding(counts, env.lose, settings.fold_end_probability, env.lose_value,
                             env.other_value)
        rank = {k: i for i, k in enumerate(fold.order)}
        best = min(discards, key=lambda e: rank.get(T.kind_of(e.pai or 0), 99))
        how = "fallback: fold (FS order, eq. 12)"
    else:
        best = best_discard(list(counts), discards, [4 - u - c for u, c in zip(env.unseen, counts)])
        how = "fallback: efficiency"
    return [ActionValue(e, 0.0 if e is best else -1.0, how,
                        {"shanten_after": float(sh_after.get(T.kind_of(e.pai or 0), 9))})
            for e in discards]


def _kan_value(e: Event, counts: list[int], kinds: list[int], sh_after: dict[int, int],
               out: list[ActionValue]) -> ActionValue:
    """Kans are not searched: a closed or added kan is taken only when it keeps the shanten of
    the best discard (it adds a draw and dora), valued just above that discard."""
    k = T.kind_of(e.consumed[0] if e.consumed else (e.pai or 0))
    w = list(counts)
    w[k] -= 4 if e.type == "ankan" else 1
    try:
        sh = shanten_of(bytes(w)) if sum(w) % 3 == 1 else 99
    except ValueError:
        sh = 99
    best_sh = min(sh_after.values())
    finite = [v.value for v in out if math.isfinite(v.value)]
    top = max(finite) if finite else 0.0
    ok = sh <= best_sh and e.type == "ankan"
    return ActionValue(e, top + 1e-6 if ok else -math.inf, "rule: kan keeps shanten",
                       {"shanten_after": float(sh)})


def _claim(obs: Any, legal: Sequence[Event], env: Environment, ctx: HandContext,
           counts: list[int], settings: Settings) -> Decision:
    """Ron, pass, chi or pon after another player's discard, each valued by the MDPs."""
    out: list[ActionValue] = []
    sh = shanten_of(bytes(counts))
    dec = Decision(out, sh)
    draws = _draws_left(env)
    base: _Mdp | None = None
    calls = any(e.type in ("chi", "pon") for e in legal)
    if sh <= 1 or (calls and sh == 2):
        # At shanten 2 the pass is searched too when a call is possible, so that pass and
        # call are compared on one scale (IPS); if that space is too large, no call is made.
        base = _ips(env, ctx, [bytes(counts)], sh, settings, draws, dec)
    for e in legal:
        if e.type == "hora":
            assert e.pai is not None
            k = T.kind_of(e.pai)
            w = bytearray(counts)
            w[k] += 1
            dama, rp = win_points(bytes(w), k, False, ctx, settings.ura_han)
            pts = rp if env.state.in_riichi(env.seat) else dama
            d = [0, 0, 0, 0]
            tgt = e.target if e.target is not None else (env.seat + 3) % 4
            pay = int(max(pts, 1000)) + 300 * env.state.honba
            d[tgt] -= pay
            d[env.seat] += pay + 1000 * env.state.kyotaku
            out.append(ActionValue(e, env.payoff(d, env.seat == env.state.oya), "win (eq. 3)",
                                   {"points": float(pts)}))
        elif e.type == "none":
            if base is not None:
                v = base.c_value(bytes(counts), draws)
                out.append(ActionValue(e, v, "IPS (eq. 16)", {}))
            else:
                terms: dict[str, float] = {}
                v = _far_value(env, ctx, bytes(counts), None, settings, draws, terms)
                out.append(ActionValue(e, v, "eq. 17", terms))
        elif e.type in ("chi", "pon"):
            if base is None:
                out.append(ActionValue(e, -math.inf, "call not searched (shanten > 2)", {}))
            else:
                out.append(_call_value(obs, e, env, ctx, counts, settings, draws))
        else:
            out.append(ActionValue(e, -math.inf, "not searched (open kan)", {}))
    return dec


def _call_value(obs: Any, e: Event, env: Environment, ctx: HandContext, counts: list[int],
                settings: Settings, draws: int) -> ActionValue:
    """A call: the hand after it (one meld more, a discard to make) valued by IPS over the
    open hand's own space; the best discard after the call gives the call's value."""
    assert e.pai is not None
    w = list(counts)
    for c in e.consumed:
        w[T.kind_of(c)] -= 1
    kinds_m = tuple(sorted([T.kind_of(e.pai), *(T.kind_of(c) for c in e.consumed)]))
    ctx2 = HandContext(melds=(*ctx.melds, (e.type, kinds_m)), seat_wind=ctx.seat_wind,
                       round_wind=ctx.round_wind, dora_indicators=ctx.dora_indicators,
                       red=ctx.red, dealer=ctx.dealer)
    kinds = [k for k in range(34) if w[k]]
    after = {k: _bytes_minus(w, k) for k in kinds}
    sh_after = {k: shanten_of(b) for k, b in after.items()}
    best_sh = min(sh_after.values())
    if best_sh > 1:
        return ActionValue(e, -math.inf, "call not searched (shanten > 1 after it)",
                           {"shanten_after": float(best_sh)})
    dummy = Decision([], best_sh)
    mdp = _ips(env, ctx2, list(after.values()), best_sh, settings, draws, dummy)
    if mdp is None:
        return ActionValue(e, -math.inf, "call: space too large", {})
    best = max(((mdp.q(after[k], k, draws), k) for k in kinds), key=lambda t: t[0])
    if math.isnan(best[0]):
        return ActionValue(e, -math.inf, "call: no searched discard", {})
    return ActionValue(e, best[0] - settings.call_margin, "IPS after the call (eq. 16) - margin",
                       {"discard_after": float(best[1]), "shanten_after": float(best_sh)})
