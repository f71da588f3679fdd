"""Files shipped inside the package, read by the agents that need them and nothing else.

The default weights of the network agents (``sl_default.pt``, ``sl_mcr_default.pt``,
``pg_default.pt``, ``pg_mcr_default.pt``, ``pg_mcr_start.pt``; docs/learning.md and
docs/rl.md say how they were trained), the ``mdp`` agent's
opponent models (``mdp_opponents.json``, docs/mdp_search.md) and the ``search`` agent's
placement model (``placement_riichi4.json``, docs/search.md).  The JSON files are read
without executing anything.
"""
