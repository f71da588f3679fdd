"""Rule sets, one subpackage each: ``riichi`` (Japanese), later ``mcr`` and ``suits108``.

Every rule set is configuration (a frozen dataclass of documented flags with named presets) plus
small strategy modules; nothing here copies an engine, and nothing here imports the engine.
"""
