"""Shared by the fault benchmarks (`bench_faults.py`, `bench_hostile.py`): what a child
process reports of its own peak memory, and the scripted HTTP server on 127.0.0.1 that the
tests use too (`tests/sources/local_server.py`, the one copy: benchmarks import the tests'
helpers, as `bench_hostile.py` does `tests/decks/hostile_files.py`, never the other way).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "sources"))
from local_server import Server  # noqa: E402

__all__ = ["PEAK_MB_SOURCE", "Server"]

#: Python source defining `peak_mb()` for a child script run with `python -c`: the child's
#: own peak resident memory in MB (VmHWM from /proc: the whole process, interpreter and
#: imports included; `ru_maxrss` would keep the parent's across fork + exec), else
#: `resource.getrusage`.
PEAK_MB_SOURCE = r'''
def peak_mb():
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
'''
