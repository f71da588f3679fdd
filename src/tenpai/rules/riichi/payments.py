"""Point transfers of a win: honba, riichi deposits, pao, and nagashi mangan.

Pao (sekinin barai): a player who fed the call that made daisangen or daisuushii certain is
liable when that hand wins.  On a tsumo the liable player pays the liable part as if they had
dealt in, honba included; on a ron off someone else, the discarder and the liable player each
pay half of the liable part and the liable player also pays the honba; when the liable player
deals in themself it is an ordinary ron.  ``RiichiRules.pao_scope`` says what the liable part is:
Tenhou makes it the whole hand (a daisangen + tsuuiisou tsumo is paid entirely by the liable
player); Mahjong Soul only the pao yakuman, the rest being paid normally.  docs/riichi.md gives
the sources and the one point left open (who pays honba under Mahjong Soul's split).

Three players (``rules.players == 3``): a tsumo is paid by the two others at the four-player
rates, the absent player's share being lost (tsumo loss, as Tenhou scores it); honba are
``honba_points`` on a ron and split between the payers of a tsumo.
"""

from __future__ import annotations

from collections.abc import Iterable

from tenpai.rules.riichi.context import ScoringError
from tenpai.rules.riichi.evaluate import WinResult, compiled_module
from tenpai.rules.riichi.ruleset import RiichiRules
from tenpai.rules.riichi.scoring import ceil100, payment_split

__all__ = [
    "completes_pao_sets",
    "liable_seat",
    "nagashi_mangan_payments",
    "payments",
    "payments_python",
]

#: The sets whose last called pon or open kan makes the seat it came from liable: the three
#: dragons (daisangen) and the four winds (daisuushii).
_PAO_GROUPS = ((31, 32, 33), (27, 28, 29, 30))

_module = compiled_module()
_fast = _module.payments if _module is not None else None


def completes_pao_sets(called: int, set_kinds: Iterable[int]) -> bool:
    """Whether a pon or open kan of kind ``called`` gives its caller a pon or kan of every
    dragon or of every wind (``set_kinds``: the kinds of all the caller's pons and kans, this
    one included): the seat it was called from is then liable (pao) if the caller wins with
    the yakuman (``RiichiRules.pao_yakuman``).  The one rule of who becomes liable, read by the
    engine, the mjai client's tracker and the replay of stored games.  ``set_kinds`` is read
    only when ``called`` is a dragon or a wind, so a caller may pass a lazy generator."""
    group = next((g for g in _PAO_GROUPS if called in g), None)
    if group is None:
        return False
    have = set(set_kinds)
    return all(k in have for k in group)


def liable_seat(result: WinResult, pao: int | None) -> int | None:
    """The seat this win is paid under pao from: ``pao`` (the seat the winner's dragons or
    winds were completed from) when the hand holds one of the rules' pao yakuman
    (``result.pao_yakuman``, which is 0 when ``RiichiRules.pao_yakuman`` is empty), else
    ``None``.  :func:`payments` pays by it and the engine's ``hora`` event names it, so a
    record written from an engine game keeps the liable seat (mjlog ``paoWho``).  A liable
    seat that deals in themself is still named: they pay the whole hand as the discarder."""
    return pao if pao is not None and result.pao_yakuman else None


def _check_seat(name: str, seat: int | None, players: int = 4) -> None:
    if seat is not None and not 0 <= seat < players:
        raise ScoringError(f"payments: {name} {seat} is not a seat 0-{players - 1}")


def payments(
    result: WinResult,
    rules: RiichiRules,
    *,
    winner: int,
    dealer: int,
    discarder: int | None = None,
    honba: int = 0,
    kyotaku: int = 0,
    pao: int | None = None,
) -> list[int]:
    """Per-seat point changes (one per player, summing to ``kyotaku * riichi_deposit``).

    ``discarder`` is ``None`` for a tsumo.  ``kyotaku`` is the number of riichi deposits the
    winner collects (pass 0 for the second winner of a double ron, since the deposits go to one
    winner).  ``pao`` is the liable seat, if any; it is ignored when the hand holds none of the
    rules' pao yakuman.
    """
    if _fast is not None:
        fast: list[int] = _fast(result, rules, winner, dealer, discarder, honba, kyotaku, pao)
        if fast is not NotImplemented:
            return fast
    return payments_python(result, rules, winner=winner, dealer=dealer, discarder=discarder,
                           honba=honba, kyotaku=kyotaku, pao=pao)


def payments_python(
    result: WinResult,
    rules: RiichiRules,
    *,
    winner: int,
    dealer: int,
    discarder: int | None = None,
    honba: int = 0,
    kyotaku: int = 0,
    pao: int | None = None,
) -> list[int]:
    """:func:`payments` in Python: the specification of the compiled path, which answers
    only valid calls and leaves every refusal (and its message) to this function."""
    n = rules.players
    for name, seat in (("winner", winner), ("dealer", dealer), ("discarder", discarder),
                       ("pao", pao)):
        _check_seat(name, seat, n)
    if result.tsumo != (discarder is None):
        raise ScoringError("payments: a tsumo result takes no discarder and a ron needs one")
    if discarder == winner or pao == winner:
        raise ScoringError("payments: the winner cannot pay themself")
    if (winner == dealer) != result.dealer:
        raise ScoringError("payments: the result's dealer flag disagrees with the seats")
    if honba < 0 or kyotaku < 0:
        raise ScoringError("payments: honba and kyotaku cannot be negative")

    deltas = [0] * n
    honba_total = rules.honba_points * honba

    def pay(seat: int, amount: int) -> None:
        deltas[seat] -= amount
        deltas[winner] += amount

    liable = 0
    pao = liable_seat(result, pao)
    if pao is not None:
        whole = rules.pao_scope == "whole_hand"
        liable = result.base_points if whole else 8000 * result.pao_yakuman
    rest = result.base_points - liable
    ron_factor = 6 if result.dealer else 4

    if liable and pao is not None and pao != discarder:
        liable_value = ceil100(liable * ron_factor)
        if discarder is None:
            pay(pao, liable_value + honba_total)
        else:
            pay(pao, liable_value // 2 + honba_total)
            pay(discarder, liable_value - liable_value // 2)
        honba_total = 0
    elif liable:
        rest = result.base_points
    if rest:
        ron, from_dealer, from_other = payment_split(rest, result.dealer, result.tsumo)
        if discarder is not None:
            pay(discarder, ron + honba_total)
        else:
            each = honba_total // (n - 1)
            for seat in range(n):
                if seat != winner:
                    pay(seat, (from_dealer if seat == dealer else from_other) + each)
    deltas[winner] += kyotaku * rules.riichi_deposit
    return deltas


def nagashi_mangan_payments(winner: int, dealer: int, rules: RiichiRules) -> list[int]:
    """Nagashi mangan, paid like a mangan tsumo without honba (deposits stay on the table).

    Several players can hold it at the same exhaustive draw: the engine adds their deltas.
    It is a draw payment, not a win, so it never goes through ``evaluate``.
    """
    if not rules.nagashi_mangan:
        raise ScoringError("nagashi_mangan_payments: the rules play without nagashi mangan")
    n = rules.players
    _check_seat("winner", winner, n)
    _check_seat("dealer", dealer, n)
    deltas = [0] * n
    is_dealer = winner == dealer
    _, from_dealer, from_other = payment_split(2000, is_dealer, True)
    for seat in range(n):
        if seat == winner:
            continue
        amount = from_dealer if seat == dealer else from_other
        deltas[seat] -= amount
        deltas[winner] += amount
    return deltas
