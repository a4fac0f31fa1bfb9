"""The bundled random bot, but first it writes the CPUs it may run on to its stderr
(``cpus 0,1``): the pinning tests read that from the bot's stderr file."""

import os
import runpy
import sys
from pathlib import Path

sys.stderr.write("cpus " + ",".join(str(cpu) for cpu in sorted(os.sched_getaffinity(0))) + "\n")
sys.stderr.flush()
runpy.run_path(str(Path(__file__).parents[2] / "bots" / "random_bot.py"), run_name="__main__")
