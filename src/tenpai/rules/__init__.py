"""Rule sets, one subpackage each: ``riichi`` (Japanese), ``mcr`` (Chinese Official) and
``suits108`` (the 108-tile game).

Every rule set is configuration (a frozen dataclass of documented flags with named presets) plus
small strategy modules and a game flow built on :mod:`tenpai.engine`'s shared table; nothing
here copies the engine.  The three do not import each other (an import-linter contract), and
the arena imports only the one a run plays (:mod:`tenpai.arena.games`).
"""
