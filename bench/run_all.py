"""Run every benchmark against its peer library in one go and save the JSON summaries.

Usage: ``python bench/run_all.py [OUT.json]``.  Each benchmark times ours and the peer in the
same process on the same inputs, so the ratios are the figures to compare across machines;
absolute rates move with the load of a shared machine.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

# Run through the same interpreter, so an unactivated virtual environment works too.
BENCHES = [
    [sys.executable, "-m", "tenpai", "bench", "hand", "--json"],
    [sys.executable, "-m", "tenpai", "bench", "engine", "--json"],
    [sys.executable, "-m", "tenpai", "bench", "fan", "--json"],
    [sys.executable, "-m", "tenpai", "bench", "agent", "--json"],
]


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else None
    results: dict[str, object] = {}
    for cmd in BENCHES:
        name = cmd[4]
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        print(proc.stdout, end="")
        lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
        if proc.returncode != 0 or not lines:
            print(f"bench {name} failed: {proc.stderr.strip()[-500:]}", file=sys.stderr)
            results[name] = {"error": proc.stderr.strip()[-500:]}
            continue
        results[name] = json.loads(lines[-1])
    if out is not None:
        out.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
