"""Weights of sampled worlds from the wins the opponents did not take.

:mod:`tenpai.search.weights` scores the opponents' discards and
:mod:`tenpai.search.call_likelihood` their calls and passes on calls.  A pass on a *win* is
stronger evidence than either: the prior network and every real player declare a legal ron or
tsumo, so a world whose hand for an opponent could have won on a tile the opponent let go is
(almost) impossible.  This part gives such a world the log weight :data:`LOG_IMPOSSIBLE` and
every other world 0.

**Which moments** (per opponent ``s``, from the deciding seat's masked events): the window of
:func:`~tenpai.search.call_likelihood.claim_window` — walking back from the opponent's latest
event, its hand between turns is the world's current hand ``H`` as long as every discard met is a
tsumogiri; the walk stops at its first hand-tile discard, a call, a kan or a North set aside.  An
opponent in riichi is read from its declaration discard on instead, whatever it did since: its
hand between turns is ``H`` then except across a closed kan in riichi, which the table allows only
when it leaves the waits unchanged, and the riichi is a yaku, so "``H`` + tile is complete and not
furiten" decides those wins exactly as the hand of the time would.  Inside the window:

* **ron**: every discard by another seat, and every added kan (chankan), North set aside
  (three players) or, where ``rules.kokushi_robs_ankan``, closed kan (a thirteen-orphans hand
  only) that nobody won on, and whose answer is known (the claim or rob window is closed);
* **tsumo**: every tsumogiri of the opponent: its hand at that draw was ``H`` + the tile it
  threw, which it could have declared.

**Legality** is the table's (:class:`~tenpai.rules.riichi.flow.round.RiichiRound`): the kind
completes ``H`` (``tenpai.hand.waits``), a ron is not furiten — no wait in the opponent's own
river, no wait passed by it since its own last discard (temporary furiten; any wait counts, on
which it could not have won too), none since its riichi (riichi furiten) — and the engine's own
scorer (:func:`~tenpai.rules.riichi.flow.scoring.score_win`) scores the win: a yaku with the
opponent's melds, seat and round wind, riichi, the last tile (haitei / houtei), chankan,
rinshan, tenhou / chiihou.  What only changes the han (dora, ura, ippatsu, double riichi, red
fives) is not passed on.  No Riichi rule forbids a win on the last tile (both are yaku).  The
yaku are judged under the table's rules where the caller has them (the search agent passes its
table's: without open tanyao an open all-simples hand has no yaku, and its passed ron no
evidence), else under the Tenhou preset of the table's size (the rules of the Houou records and
of the arena's Riichi tables).

**Why a finite weight**: a pool in which every world is impossible (the opponent missed a win,
as real players now and then do, or passed one on purpose) must still normalise — ``-inf`` in
every world makes :func:`~tenpai.search.weights.normalised` divide zero by zero — and then the
other parts' weights should decide among the worlds, which a common finite penalty leaves
untouched.  :data:`LOG_IMPOSSIBLE` is larger than any gap the other parts make in practice
(a handful of scored decisions, each a log-probability of a few nats), so a possible world
outweighs an impossible one; a world is impossible once however many wins it passed.  It is not
divided by the weight temperature: the temperature flattens a network's over-sure
probabilities, and this is a rule, not a probability.

What it adds to the sampler: an opponent in riichi gets ready hands whose waits avoid its river
and every tile let go since the declaration (:class:`~tenpai.search.worlds.WorldSampler`), so
with ``riichi_ready`` this part finds its passed wins in the other opponents' ready hands (and in
the riichi hands only where the sampler fell back to uniform ones).  On held-out games it makes
0.06–0.10 % of the worlds impossible (docs/search_runs.md, "World weights from passed wins").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tenpai import tiles as T
from tenpai.engine.meld import Meld
from tenpai.events import Event
from tenpai.hand import waits
from tenpai.learn.state import LIVE_WALL_AFTER_DEAL, LIVE_WALL_AFTER_DEAL_3P
from tenpai.rules.riichi.flow.round import Scorer
from tenpai.rules.riichi.flow.scoring import score_win
from tenpai.rules.riichi.flow.types import WinRequest
from tenpai.rules.riichi.ruleset import RiichiRules, preset_for_players
from tenpai.search.call_likelihood import claim_window

__all__ = ["LOG_IMPOSSIBLE", "WinChance", "WinPassLikelihood", "win_chances"]

#: The log weight of a world in which an opponent passed a legal win (see the module docstring).
LOG_IMPOSSIBLE = -100.0

_CALLS = ("chi", "pon", "daiminkan")
_KANS = ("ankan", "kakan", "daiminkan")
_ROBS = ("kakan", "ankan", "nukidora")
#: Events that end a discard's claim window (what follows them says what was claimed).
_AFTER_DISCARD = ("tsumo", "chi", "pon", "daiminkan", "hora", "ryukyoku", "dahai")
#: Events that end a rob window (the replacement draw when nobody robbed).
_AFTER_ROB = ("tsumo", "hora", "ryukyoku")
_TERMINAL_HONOR = tuple(k for k in range(34) if T.is_terminal_or_honor(k))


@dataclass(frozen=True, slots=True)
class WinChance:
    """A moment where ``seat`` could have won with ``tile`` and did not.

    ``at``: the index in the events of the discard, kan or North it could have won on, or of
    the draw it could have declared tsumo with.  ``request``: the situation the scorer is
    asked about, without the hand (``hand=()``).  ``river``: the kinds of the seat's own
    discards then (permanent furiten).  ``passed``: the kinds the seat had let go since its
    last discard or its riichi (temporary and riichi furiten), each with whether it was a
    closed kan's tile (a pass only for a thirteen-orphans hand).  ``kokushi_only``: a closed
    kan robbed (only a thirteen-orphans hand may)."""

    seat: int
    tile: int
    at: int
    request: WinRequest
    river: frozenset[int] = frozenset()
    passed: tuple[tuple[int, bool], ...] = ()
    kokushi_only: bool = False

    @property
    def tsumo(self) -> bool:
        return self.request.tsumo


def _kokushi_ready(counts: Sequence[int], melds: Sequence[Meld]) -> bool:
    return not melds and sum(1 for k in _TERMINAL_HONOR if counts[k]) >= 12


def _resolved(events: Sequence[Event], i: int, ends: tuple[str, ...]) -> bool:
    """Whether the window opened at ``i`` closed with nobody winning (and the hand went on)."""
    answer = next((e for e in events[i + 1:] if e.type in ends), None)
    return answer is not None and answer.type not in ("hora", "ryukyoku")


def _replacement_draw(events: Sequence[Event], draw: int, seat: int, start: int) -> bool:
    """Whether the draw at ``draw`` replaced a kan or a North set aside by ``seat`` (a win
    on it is rinshan, never haitei): the seat's kan is the event before it, a new dora
    indicator aside."""
    j = draw - 1
    while j > start and events[j].type == "dora":
        j -= 1
    return events[j].actor == seat and events[j].type in (*_KANS, "nukidora")


def win_chances(events: Sequence[Event], seat: int, players: int,
                rules: RiichiRules | None = None) -> list[WinChance]:
    """Every moment an opponent of ``seat`` could have won with its current hand and did not
    (see the module docstring), from the seat's masked events (the hand's, or the game's: the
    latest hand is read).  ``rules``: whether a closed kan may be robbed (``None``: the Tenhou
    preset of the table's size)."""
    start = next((i for i in range(len(events) - 1, -1, -1)
                  if events[i].type == "start_kyoku"), None)
    if start is None:
        return []
    first = events[start]
    n = len(first.tehais) if first.tehais else players
    rules = rules or preset_for_players("tenhou", n)
    oya = first.oya if first.oya is not None else (first.kyoku or 0) % n
    live = LIVE_WALL_AFTER_DEAL_3P if n == 3 else LIVE_WALL_AFTER_DEAL

    # the public record of the hand: melds, Norths set aside, riichi declarations, the wall
    melds: list[list[Meld]] = [[] for _ in range(n)]
    norths = [0] * n
    declared: list[int] = [len(events)] * n  # each seat's riichi declaration discard
    reached = [False] * n
    left: dict[int, int] = {}  # live-wall tiles left at each event (after a draw: after it)
    wall = live
    for i in range(start, len(events)):
        e = events[i]
        a = e.actor
        if e.type == "tsumo":
            wall -= 1
        left[i] = wall
        if a is None or not 0 <= a < n:
            continue
        if e.type == "reach":
            reached[a] = True
        elif e.type == "dahai" and reached[a] and declared[a] == len(events):
            declared[a] = i
        elif e.type in _CALLS and e.pai is not None:
            tiles = tuple(sorted((*e.consumed, e.pai), key=T.kind_of))
            melds[a].append(Meld(e.type, tiles, e.pai, e.target))  # type: ignore[arg-type]
        elif e.type == "ankan":
            melds[a].append(Meld("ankan", tuple(e.consumed)))
        elif e.type == "kakan" and e.pai is not None:
            k = T.kind_of(e.pai)
            j = next((j for j, m in enumerate(melds[a])
                      if m.type == "pon" and T.kind_of(m.tiles[0]) == k), None)
            if j is not None:
                old = melds[a][j]
                melds[a][j] = Meld("kakan", (*old.tiles, e.pai), old.called, old.target, e.pai)
        elif e.type == "nukidora":
            norths[a] += 1

    out: list[WinChance] = []
    for s in range(n):
        if s != seat:
            out += _seat_chances(events, start, s, n, oya, rules, left, declared[s],
                                 WinRequest(seat=s, target=s, hand=(), melds=tuple(melds[s]),
                                            win_tile=0, tsumo=False,
                                            seat_wind=27 + (s - oya) % n,
                                            round_wind=27 + (first.bakaze or 0), dealer=oya,
                                            nukidora=norths[s]))
    return out


def _seat_chances(events: Sequence[Event], start: int, s: int, n: int, oya: int,
                  rules: RiichiRules, left: Mapping[int, int], declared: int,
                  base: WinRequest) -> list[WinChance]:
    """The chances of one opponent ``s`` (``declared``: its riichi discard's index, or past
    the end): its window, then its passes and its tsumogiri in order."""
    window = min(claim_window(events, s).start, declared + 1)
    out: list[WinChance] = []
    river: set[int] = set()
    passed: list[tuple[int, int, bool]] = []  # (index, kind, a closed kan's) let go by s
    last_own = start  # the seat's last discard: temporary furiten counts from it
    last_draw = start
    any_call = False
    for i in range(start + 1, len(events)):
        e = events[i]
        a = e.actor
        if a == s and e.type == "tsumo":
            last_draw = i
        elif a == s and e.type == "dahai" and e.pai is not None:
            if e.tsumogiri and last_draw >= window:
                rinshan = _replacement_draw(events, last_draw, s, start)
                first_turn = not any_call and last_own == start
                out.append(WinChance(s, e.pai, last_draw, dataclasses.replace(
                    base, win_tile=e.pai, tsumo=True, riichi=declared < last_draw,
                    haitei=left[last_draw] == 0 and not rinshan, rinshan=rinshan,
                    tenhou=first_turn and s == oya, chiihou=first_turn and s != oya)))
            river.add(T.kind_of(e.pai))
            last_own = i
        elif a is not None and a != s and (e.type == "dahai" or e.type in _ROBS):
            tile = e.consumed[0] if e.type == "ankan" and e.consumed else e.pai
            if tile is not None and _resolved(
                    events, i, _AFTER_DISCARD if e.type == "dahai" else _AFTER_ROB):
                closed = e.type == "ankan"
                chankan = e.type in ("kakan", "ankan")
                if i >= window and (not closed or rules.kokushi_robs_ankan):
                    since = declared if declared < i else last_own  # riichi / temporary
                    out.append(WinChance(
                        s, tile, i,
                        dataclasses.replace(base, target=a, win_tile=tile, riichi=declared < i,
                                            houtei=left[i] == 0 and not chankan,
                                            chankan=chankan),
                        frozenset(river),
                        tuple((k, c) for j, k, c in passed if j > since),
                        kokushi_only=closed))
                passed.append((i, T.kind_of(tile), closed))
        if e.type in (*_CALLS, *_KANS, "nukidora"):
            any_call = True
    return out


class WinPassLikelihood:
    """:data:`LOG_IMPOSSIBLE` for the worlds in which an opponent passed a legal win, else 0.

    ``rules`` judge the yaku where :meth:`evidence` is not given the table's (``None``: the
    Tenhou preset of the table's size); ``scorer`` is the engine's
    (:func:`~tenpai.rules.riichi.flow.scoring.score_win`) unless given."""

    def __init__(self, rules: RiichiRules | None = None, scorer: Scorer | None = None) -> None:
        self.rules = rules
        self.scorer: Scorer = scorer or score_win
        self._rules_of: dict[int, RiichiRules] = {}

    def _rules(self, players: int) -> RiichiRules:
        if self.rules is not None:
            return self.rules
        if players not in self._rules_of:
            self._rules_of[players] = preset_for_players("tenhou", players)
        return self._rules_of[players]

    def evidence(self, events: Sequence[Event], seat: int, players: int,
                 rules: RiichiRules | None = None) -> tuple[RiichiRules, list[WinChance]]:
        """The opponents' passed chances to win, and the rules that judge them: the table's
        ``rules`` when given, else this part's."""
        rules = rules or self._rules(players)
        return rules, win_chances(events, seat, players, rules)

    def passed_win(self, chance: WinChance, hand: Sequence[int], rules: RiichiRules) -> bool:
        """Whether ``hand`` (the seat's concealed tiles between turns) could have won on the
        chance — and so was not the hand the seat held."""
        counts = T.counts34(hand)
        wait = set(waits(counts))
        return self._legal(chance, hand, counts, wait, rules)

    def _legal(self, c: WinChance, hand: Sequence[int], counts: Sequence[int],
               wait: set[int], rules: RiichiRules) -> bool:
        if T.kind_of(c.tile) not in wait:
            return False
        ready_13 = _kokushi_ready(counts, c.request.melds)
        if c.kokushi_only and not ready_13:
            return False
        if not c.tsumo:
            if wait & c.river:
                return False
            if any(k in wait and (not closed or ready_13) for k, closed in c.passed):
                return False
        request = dataclasses.replace(c.request, hand=(*hand, c.tile))
        return self.scorer(request, rules) is not None

    def log_weights(self, evidence: tuple[RiichiRules, Sequence[WinChance]],
                    hands: Sequence[Mapping[int, Sequence[int]]]) -> list[float]:
        """:data:`LOG_IMPOSSIBLE` for each world whose hand for an opponent could have won on
        one of its passed chances, 0 for the others."""
        rules, chances = evidence
        out = [0.0] * len(hands)
        if not chances:
            return out
        by_seat: dict[int, list[WinChance]] = {}
        for c in chances:
            by_seat.setdefault(c.seat, []).append(c)
        for w, world in enumerate(hands):
            for s, mine in by_seat.items():
                hand = world.get(s)
                if hand is None or len(hand) % 3 != 1:
                    continue  # not between turns (a kan in progress): no exact hand
                counts = T.counts34(hand)
                wait = set(waits(counts))
                if wait and any(self._legal(c, hand, counts, wait, rules) for c in mine):
                    out[w] = LOG_IMPOSSIBLE
                    break
        return out
