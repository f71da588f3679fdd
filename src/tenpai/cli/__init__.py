"""The ``tenpai`` command line: one module per subcommand, no game logic here."""

#: Plain (click) help and usage errors, not rich's panels, for every ``typer.Typer`` here:
#: typer formats rich help by importing ``typer.rich_utils`` (rich, markdown-it; about 0.3 s,
#: more than the rest of ``tenpai --help``), and a command's help should not cost more than
#: the command.
HELP_MARKUP = None
