"""Torch modules for the supervised agents (the ``learn`` extra: ``pip install tenpai[learn]``).

It imports nothing else of tenpai.  Only what learns or plays networks imports it (learning's
model scoring, :mod:`tenpai.train`, the network agents, ``rl`` and ``mcts``, and their CLI
commands), so the engine and the rule sets never pull in torch, and the arena only when a
network agent is seated.

``tenpai.models.build.build_model(config)`` makes a module from a JSON-able config
(``{"arch": "gao_cnn", ...}``); configs travel with the weights in checkpoints so a model can
always be rebuilt.  This file imports nothing, so reading one module of the package (say
:mod:`.torchfile`) does not build the registry of every network.
"""
