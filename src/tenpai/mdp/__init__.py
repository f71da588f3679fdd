"""Seed 001 (Kurita & Hoki): one-player MDP abstractions of Riichi with opponent models.

Modules (the logistic regressions are :mod:`tenpai.learn.logreg`; the public picture, the
models' features and the model file are :mod:`tenpai.reading`, shared with the search):
:mod:`~tenpai.mdp.fit` (fitting the opponent models), :mod:`~tenpai.mdp.env` (the static
environment of a decision), :mod:`~tenpai.mdp.folding` (Folding Solitary Mahjong, closed
form), :mod:`~tenpai.mdp.space` and :mod:`~tenpai.mdp.solver` (hand space and retrograde
analysis), :mod:`~tenpai.mdp.player` (action values).  See docs/mdp_search.md.
"""
