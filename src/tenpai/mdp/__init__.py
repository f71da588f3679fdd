"""Seed 001 (Kurita & Hoki): one-player MDP abstractions of Riichi with opponent models.

Modules (the logistic regressions are :mod:`tenpai.learn.logreg`): :mod:`~tenpai.mdp.table` and
:mod:`~tenpai.mdp.features` (public picture and model features), :mod:`~tenpai.mdp.fit` and
:mod:`~tenpai.mdp.models` (fitting and the model file), :mod:`~tenpai.mdp.env` (the static
environment of a decision), :mod:`~tenpai.mdp.folding` (Folding Solitary Mahjong, closed
form), :mod:`~tenpai.mdp.space` and :mod:`~tenpai.mdp.solver` (hand space and retrograde
analysis), :mod:`~tenpai.mdp.player` (action values).  See docs/mdp_search.md.
"""
