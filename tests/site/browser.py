"""Headless Chromium over a built site served on a loopback port.

Chromium is driven with its own command-line modes (``--screenshot``,
``--dump-dom``); each run gets a fresh profile directory. ``--virtual-time-budget``
lets load handlers and timers run to completion on a virtual clock, so a
payload that would run does run before the DOM is dumped, without waiting on
wall time.
"""
from __future__ import annotations

import functools
import shutil
import struct
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
         "--disable-extensions", "--mute-audio"]


def binary() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@contextmanager
def serve(directory: Path) -> Iterator[str]:
    """Serve ``directory`` on 127.0.0.1 (a free port); yields the base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def _run(args: list[str]) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory(prefix="chromium-profile-") as profile:
        return subprocess.run([binary(), *FLAGS, f"--user-data-dir={profile}", *args],
                              capture_output=True, timeout=120, check=True)


def screenshot(url: str, path: Path, width: int, height: int) -> tuple[int, int]:
    """A PNG of ``url`` in a ``width`` x ``height`` window; returns the PNG's size in pixels."""
    _run([f"--window-size={width},{height}", f"--screenshot={path}", url])
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", head[16:24])


def dump_dom(url: str) -> str:
    """The DOM after the page has loaded and its scripts (if any) have run."""
    return _run(["--virtual-time-budget=3000", "--dump-dom", url]).stdout.decode()
