"""The writer: render pages and write only the files whose bytes changed.

The output directory keeps a manifest (``.manifest.json``) of every page it
holds: a fingerprint of what the page was rendered from and the SHA-256 of its
bytes. A page whose fingerprint is unchanged is not even rendered; a page that
renders to the same bytes is not rewritten; pages no longer generated are
removed. So after one new event a rebuild touches only the pages it changed,
and a web server or rsync sees only those.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from nomic.render import STATIC, TEMPLATES, environment
from nomic.website.pages import Page

MANIFEST = ".manifest.json"
FORMAT = 1


@dataclass
class WriteReport:
    pages: int = 0  # pages and static files in the site
    rendered: int = 0
    written: int = 0
    removed: int = 0


def _plain(value: object) -> object:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"cannot fingerprint {type(value).__name__}")


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def design_hash() -> str:
    """Templates and static files: a change to either re-renders every page."""
    h = hashlib.sha256()
    for base in (TEMPLATES / "site", STATIC):
        for f in sorted(base.rglob("*")):
            if f.is_file():
                h.update(str(f.relative_to(base)).encode() + b"\0" + f.read_bytes())
    return h.hexdigest()


def fingerprint(page: Page, common: str) -> str:
    """What the page is made from: its key if it has one, else its whole context."""
    made_of = page.key if page.key is not None else page.make_context()
    body = json.dumps([common, page.template, page.root, made_of], default=_plain)
    return _digest(body.encode())


class Writer:
    """Writes pages into ``out``; ``site`` is the context every page shares (name, CSP...)."""

    def __init__(self, out: Path, site: dict):
        self.out = out
        self.site = site
        self.old = self._load()
        self.present = self._files()
        self.new: dict[str, dict] = {}
        self.report = WriteReport()
        self.common = design_hash() + json.dumps(site, sort_keys=True)

    def _files(self) -> set[str]:
        """Every file now in the output directory (one directory walk, not a stat per page)."""
        found = set()
        for top, _dirs, files in os.walk(self.out):
            rel = Path(top).relative_to(self.out).as_posix()
            found.update(f if rel == "." else f"{rel}/{f}" for f in files)
        return found

    def _load(self) -> dict[str, dict]:
        try:
            data = json.loads((self.out / MANIFEST).read_text())
        except (OSError, ValueError):
            return {}
        return data.get("pages", {}) if data.get("format") == FORMAT else {}

    def page(self, page: Page) -> None:
        fp = fingerprint(page, self.common)
        old = self.old.get(page.path)
        if old and old.get("input") == fp and page.path in self.present:
            self.new[page.path] = old
            self.report.pages += 1
            return
        html = environment().get_template(f"site/{page.template}").render(
            site=self.site, root=page.root, path=page.path, **page.make_context())
        self.report.rendered += 1
        self._put(page.path, html.encode(), fp)

    def static(self) -> None:
        for f in sorted(STATIC.rglob("*")):
            if f.is_file():
                self._put(f"static/{f.relative_to(STATIC).as_posix()}", f.read_bytes(), None)

    def _put(self, path: str, data: bytes, fp: str | None) -> None:
        digest = _digest(data)
        target = self.out / path
        old = self.old.get(path)
        self.new[path] = {"input": fp, "sha256": digest}
        self.report.pages += 1
        if old and old.get("sha256") == digest and path in self.present:
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, target)
        self.report.written += 1

    def finish(self) -> WriteReport:
        """Remove pages that are no longer generated, then save the manifest."""
        for path in set(self.old) - set(self.new):
            (self.out / path).unlink(missing_ok=True)
            self.report.removed += 1
        if self.new != self.old or MANIFEST not in self.present:
            self.out.mkdir(parents=True, exist_ok=True)
            tmp = self.out / f"{MANIFEST}.tmp"
            tmp.write_text(json.dumps({"format": FORMAT, "pages": self.new}, separators=(",", ":")))
            os.replace(tmp, self.out / MANIFEST)
        return self.report
