"""Files shipped inside the package: the default weights of the ``sl`` agent (``sl_default.pt``).

See docs/learning.md for how they were trained and their model card (also stored inside).
"""
