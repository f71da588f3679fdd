"""Seed 000's multiplayer tree search on a learned ("internalized") MDP, for the 108-tile game.

* :mod:`tenpai.mcts.actions`: action ids (``suits108_v0``), Table 3 types, transition outcomes;
* :mod:`tenpai.mcts.features`: perfect-information planes (Table 1) and transition planes
  (Table 2);
* :mod:`tenpai.mcts.search`: the tree (position variable D, eq. 6; value-vector backup with the
  position shift, eqs. 7-9; PUCT, Dirichlet noise, virtual loss) with leaf evaluations batched
  across many searches;
* :mod:`tenpai.mcts.model`: the network wrapper the search calls and its checkpoint format;
* :mod:`tenpai.mcts.train`: self-play with search, replay buffer, K-step unrolled training.

docs/mcts.md states every reading of the paper and what is scaled down.
"""
