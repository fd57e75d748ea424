"""Every benchmark at its default size, one after the other (about 10 minutes on 2 cores): the
generic ones, then each listed ruleset's own (bench/RULESET.py, where it has one); with --peer,
then GNU Mailman 3 beside nomic serve (bench/peer/mailman.py: installs Mailman into a venv of its
own on first use)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the repository's engine package, not bench/engine.py

from engine.ruleset import names  # noqa: E402

GENERIC = ["engine.py", "fanout.py", "drain.py", "site.py", "intake.py", "process.py", "replay.py", "players.py",
           "hostile.py", "host.py", "commits.py"]
SCRIPTS = GENERIC + [f"{name}.py" for name in names() if (HERE / f"{name}.py").is_file()]

if __name__ == "__main__":
    scripts = SCRIPTS + (["peer/mailman.py"] if "--peer" in sys.argv[1:] else [])
    failed = [s for s in scripts if subprocess.run([sys.executable, str(HERE / s)]).returncode]
    sys.exit(f"failed: {', '.join(failed)}" if failed else 0)
