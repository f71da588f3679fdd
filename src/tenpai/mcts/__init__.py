"""Seed 000's multiplayer tree search on a learned ("internalized") MDP: the 108-tile game, and
Riichi through the same search with Riichi planes (:mod:`tenpai.mcts.rulesets` holds what
differs per rule set).

* :mod:`tenpai.mcts.agent`: the registry's ``mcts``, ``mcts_prior`` and ``dropout`` agents;
* :mod:`tenpai.mcts.actions`: action ids (``suits108_v0``), Table 3 types, transition outcomes;
* :mod:`tenpai.mcts.features`: perfect-information planes (Table 1) and transition planes
  (Table 2);
* :mod:`tenpai.mcts.search`: the tree (position variable D, eq. 6; value-vector backup with the
  position shift, eqs. 7-9; PUCT, Dirichlet noise, virtual loss) with leaf evaluations batched
  across many searches;
* :mod:`tenpai.mcts.model`: the network wrapper the search calls and its checkpoint format;
* :mod:`tenpai.mcts.train`: self-play with search, replay buffer, K-step unrolled training;
* :mod:`tenpai.mcts.dropout` and :mod:`tenpai.mcts.warmstart`: the imperfect-information
  player (dropout learning) and the supervised warm start from a rule agent's games;
* below those trainings and the agents, what they share: :mod:`tenpai.mcts.packed_planes`
  (planes stored as ``uint8``), :mod:`tenpai.mcts.checkpoint` (the search training's
  checkpoint), :mod:`tenpai.mcts.loss` (eq. 10 unrolled), :mod:`tenpai.mcts.teacher` (a rule
  agent recorded like the search) and :mod:`tenpai.mcts.dropout_model` (the normal agent's
  network).

It sits above the agents, self-play and the environments it uses; its search speed is
measured by :mod:`tenpai.bench.search`.

docs/mcts.md states every reading of the paper and what is scaled down.
"""
