"""The kernel's name for a daemon's thread, so that tools outside Python can tell its threads apart.

Python 3.11 names its threads for Python alone; the kernel calls each of them what the process is
called. A thread that folds names itself here ("processor", "processor-SLUG" in a host), and
``top -H``, ``ps -L`` and ``/proc/PID/task/TID/comm`` show that name: ``bench/intake.py`` reads it to
count the fold's CPU apart from intake's (docs/performance.md).
"""
from __future__ import annotations

import ctypes
import sys

_PR_SET_NAME = 15  # prctl(2): the calling thread's name, 15 bytes at most
_LIMIT = 15


def name_this_thread(name: str) -> None:
    """Give the calling thread ``name`` (its first 15 bytes) in the kernel; nothing off Linux."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_NAME, name.encode()[:_LIMIT])
