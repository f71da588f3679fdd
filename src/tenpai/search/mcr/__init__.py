"""The decision-time search for Chinese Official (agent ``search_mcr``, issue 43 §2).

The Riichi search's method on the MCR engine: the planner's choice reconsidered by playouts
over worlds sampled from the seat's view.  Parts: :mod:`worlds` (hidden tiles of an MCR hand,
one shared wall or Botzone's per-seat walls), :mod:`policies` (a cheap greedy playout policy),
:mod:`playout` (a world played to the end of its hand, valued by the contest's score;
:mod:`compiled` the same in C, :mod:`playout_backends` the choice by name),
:mod:`settings` (``$TENPAI_SEARCH_MCR_*``) and :mod:`agent`.  The final choice, the budget and
the world seeds are the Riichi search's own (:mod:`tenpai.search.choice`,
:mod:`tenpai.search.budget`).
"""
