"""Every benchmark of the package, one module per subject, run by ``tenpai bench …``.

Ours against peer libraries on the same inputs in the same process (``hand``, ``scoring``,
``fan``, ``engine``; peers imported lazily), and our own rates (``agent``, ``arena``,
``selfplay``; ``search``, the tree search's, is called from Python; ``process`` and
``startup`` time whole processes from outside).
Speed is never asserted in tests; the tests only check that a bench measures what it says.

Three scripts stay in the repository's ``bench/`` folder, outside the package, because they
are tools around the benchmarks rather than measurements a user runs: ``run_all.py`` drives
every ``tenpai bench`` command and collects their JSON, ``web_load.py`` load-tests a live web
app (the ``web`` extra, a server on a free port), and ``efficiency_profile.py`` profiles one
encoder function with cProfile.
"""
