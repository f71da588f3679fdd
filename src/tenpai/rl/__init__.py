"""Reinforcement learning on top of the self-play core: policy gradient (seed 002) with its
critic and vine estimators, imitation of a rule agent as a start (``train imitate``), and the
learning curve; the pair win rate it measures by is :mod:`tenpai.selfplay.pairs`.

Nothing below ``tenpai.rl`` imports it; it needs torch (the ``learn`` extra).
"""
