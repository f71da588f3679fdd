"""Every benchmark of the package, one module per subject, run by ``tenpai bench …``.

Ours against peer libraries on the same inputs in the same process (``hand``, ``scoring``,
``fan``, ``engine``; peers imported lazily), and our own rates (``agent``, ``arena``,
``selfplay``; ``search``, the tree search's, is called from Python; ``process`` and
``startup`` time whole processes from outside).
Speed is never asserted in tests; the tests only check that a bench measures what it says.

Tools around them live here too: ``suite`` (``tenpai bench all``) runs every peer benchmark
in turn and prints the tracked ratios in one table, ``efficiency`` times and profiles one
encoder function, ``botzone_turn`` times the Botzone bot on a real match, and ``web_load``
load-tests the web app (the ``web`` extra), which is why this package sits above
:mod:`tenpai.serve` in the layers.  ``botzone_greedy_bot.py`` is no benchmark but a peer: a
stand-alone Botzone bot in plain Python (it imports nothing of tenpai), the opponent of the
Botzone timing runs (docs/botzone.md).  The MCR tools that read one arena results file and
print a report (``mcr_race_survival``, ``mcr_score_breakdown``) share their command-line frame,
``run_report_cli`` (the file and ``--seat-agent``; bad input one line and exit 2).
"""
