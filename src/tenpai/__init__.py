"""tenpai: a mahjong AI research platform.

Importing the package is deliberately cheap: the rules engines, records and agents load on
first use, and heavy layers (torch, ray, web servers) only behind their extras.
"""

__version__ = "0.1.0"
__all__ = ["__version__"]
