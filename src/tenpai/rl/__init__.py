"""Reinforcement learning on top of the self-play core: policy gradient (seed 002).

Nothing below ``tenpai.rl`` imports it; it needs torch (the ``learn`` extra).
"""
