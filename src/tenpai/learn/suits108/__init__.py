"""Learning on the 108-tile rules (:mod:`tenpai.rules.suits108`), through the shared layer.

Its events have Riichi's shapes (``reach`` declares a ready hand that locks it, ``reach_accepted``
follows the declaring discard, ``hora``/``ryukyoku`` carry deltas), so the Riichi tracker and
decision extraction serve it with two rule-specific answers: the wall size and when the
declaration is legal (:mod:`.records`).  Its records are games our engine plays and saves as
mjai JSONL (:func:`.records.write_selfplay_records`); its encoder is :mod:`.s108`.
"""
