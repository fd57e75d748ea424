"""Headless Chromium over a built site served on a loopback port.

Chromium is driven with its own command-line modes (``--screenshot``,
``--dump-dom``); each run gets a fresh profile directory. ``--virtual-time-budget``
lets load handlers and timers run to completion on a virtual clock, so a
payload that would run does run before the DOM is dumped, without waiting on
wall time. What needs a person's hands (typing into a form, pressing Enter)
goes through ``Tab``: the DevTools protocol over ``--remote-debugging-pipe``,
which needs no WebSocket library.
"""
from __future__ import annotations

import contextlib
import functools
import json
import os
import select
import shutil
import signal
import struct
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

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


# The README's screenshots (docs/NAME), each a page of the test game at a desk width.
README_SCREENSHOTS = {"site-home.png": "index.html", "site-how-to-play.png": "how-to-play.html",
                      "site-submission.png": "submissions/5.html", "site-temperature.png": "temperature.html",
                      "site-game-profile.png": "game-profile.html"}
README_SIZE = (1280, 1000)


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


class Tab:
    """One page of a headless Chromium, driven over the DevTools protocol (JSON messages ended by NUL)."""

    def __init__(self, send: int, receive: int):
        self._send, self._receive = send, receive
        self._buffer = b""
        self._ids = iter(range(1, 1 << 30))
        self.session = ""
        self.events: list[dict[str, Any]] = []  # everything Chromium reported, in order

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one command and wait for its result."""
        number = next(self._ids)
        message = {"id": number, "method": method, "params": params}
        if self.session:
            message["sessionId"] = self.session
        os.write(self._send, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._next(30)
            if reply is None:
                raise TimeoutError(f"no answer from Chromium to {method}")
            if reply.get("id") == number:
                assert "error" not in reply, reply["error"]
                return reply["result"]
            self.events.append(reply)

    def wait_for(self, event: str, seconds: float) -> bool:
        """Wait for ``event`` (e.g. "Page.loadEventFired"); False if it did not come in time."""
        end = time.monotonic() + seconds
        while (message := self._next(end - time.monotonic())) is not None:
            self.events.append(message)
            if message.get("method") == event:
                return True
        return False

    def _next(self, seconds: float) -> dict[str, Any] | None:
        end = time.monotonic() + seconds
        while b"\0" not in self._buffer:
            ready, _, _ = select.select([self._receive], [], [], max(0.0, end - time.monotonic()))
            if not ready:
                return None
            chunk = os.read(self._receive, 1 << 16)
            assert chunk, "Chromium closed the DevTools pipe"
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)

    def goto(self, url: str) -> None:
        self.call("Page.navigate", url=url)
        assert self.wait_for("Page.loadEventFired", 30), f"{url} did not load"

    def type_into(self, selector: str, text: str) -> None:
        """Focus the element and type ``text``, as a person would."""
        root = self.call("DOM.getDocument")["root"]["nodeId"]
        node = self.call("DOM.querySelector", nodeId=root, selector=selector)["nodeId"]
        assert node, f"no {selector} on the page"
        self.call("DOM.focus", nodeId=node)
        self.call("Input.insertText", text=text)

    def press_enter(self) -> None:
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key="Enter", code="Enter",
                      windowsVirtualKeyCode=13, text="\r" if kind == "keyDown" else "")

    def text(self) -> str:
        """What the page shows."""
        found = self.call("Runtime.evaluate", expression="document.body.innerText", returnByValue=True)
        return found["result"].get("value", "")

    def console(self) -> list[str]:
        """Chromium's messages about the page (a Content-Security-Policy refusal is one)."""
        return [e["params"]["entry"]["text"] for e in self.events if e.get("method") == "Log.entryAdded"]


@contextmanager
def tab() -> Iterator[Tab]:
    """A fresh headless Chromium with one blank page (its own profile), stopped afterwards."""
    to_chromium, from_chromium = os.pipe(), os.pipe()
    reads, writes = to_chromium[0], from_chromium[1]
    # --remote-debugging-pipe: Chromium reads fd 3 and writes fd 4; a shell moves the pipes there
    # from its stdin and stdout
    on_3_and_4 = 'exec "$0" "$@" 3<&0 4>&1 </dev/null >/dev/null'
    with tempfile.TemporaryDirectory(prefix="chromium-profile-") as profile:
        proc = subprocess.Popen(["sh", "-c", on_3_and_4, binary(), *FLAGS, f"--user-data-dir={profile}",
                                 "--remote-debugging-pipe", "about:blank"],
                                stdin=reads, stdout=writes, stderr=subprocess.DEVNULL, start_new_session=True)
        os.close(reads)
        os.close(writes)
        page = Tab(to_chromium[1], from_chromium[0])
        try:
            target = page.call("Target.createTarget", url="about:blank")["targetId"]
            page.session = page.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
            page.call("Page.enable")
            page.call("Log.enable")
            yield page
        finally:
            os.close(to_chromium[1])
            os.close(from_chromium[0])
            proc.terminate()
            proc.wait(timeout=30)
            _gone(proc.pid)  # its helpers too, before the profile they write in is removed


def _gone(group: int, timeout: float = 30) -> None:
    """Stop every process left in Chromium's process group (its renderer and GPU helpers outlive
    the browser by a moment, still writing to the profile) and wait until none is left."""
    deadline = time.monotonic() + timeout
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, signal.SIGTERM)
        while time.monotonic() < deadline:
            os.killpg(group, 0)  # (raises once the group is empty)
            time.sleep(0.05)
        os.killpg(group, signal.SIGKILL)
