"""Search at decision time over sampled worlds, valued by final placement (issue 38).

A layer above the agents (it uses them as the prior and as playout policies) and below the
arena.  Parts: :mod:`placement` (the placement value model), :mod:`worlds` (hidden tiles
sampled from one seat's view), :mod:`playout` (pluggable playout backends: the Python one;
:mod:`compiled_playout` the compiled one; :mod:`playout_backends` the choice by name),
:mod:`prior` (candidate actions and their prior probabilities), :mod:`agent` (the ``search``
agent).
"""
