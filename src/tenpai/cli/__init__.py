"""The ``tenpai`` command line: one module per subcommand, no game logic here."""
