"""The writer: render pages and write only the files whose bytes changed.

The output directory keeps a manifest (``.manifest.json``) of every page it
holds: a fingerprint of what the page was rendered from and the SHA-256 of its
bytes. A page whose fingerprint is unchanged is not even rendered; a page that
renders to the same bytes is not rewritten; pages no longer generated are
removed. So after one new event a rebuild touches only the pages it changed,
and a web server or rsync sees only those.

The daemon rebuilds in one process every few seconds, so what a build needs
from the last one is kept in memory: each page's fingerprint with the key it
was made from (hashed again only when the key differs), the manifest as last
written (read again only when the file changed), the compiled templates of the
current design, and recently rendered fragments.
"""
from __future__ import annotations

import hashlib
import operator
import os
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import compress, count
from pathlib import Path
from typing import Any

import orjson
from jinja2 import Environment
from markupsafe import Markup

from rendering import STATIC, TEMPLATES, environment
from nomic.website.pages import Family, Fragment, Page

MANIFEST = ".manifest.json"
FORMAT = 2
FRAGMENTS = 32_000_000  # characters of rendered fragments kept (a list page's table is ~30,000)

# Memos of fingerprints (a pure function, so shared by every game and output directory of the
# process): a keyed page's path -> (what it was made of, its fingerprint); a family's name ->
# (common, template, root, its members' paths, keys and fingerprints).
_FINGERPRINTS: dict[str, tuple[object, str]] = {}
_FAMILIES: dict[str, tuple[str, str, str, list[str], list[object], list[str]]] = {}


@dataclass
class Manifest:
    """Each page's entry (the fingerprint of its inputs, the SHA-256 of its bytes); its inputs
    alone, to compare thousands at once; the directories the pages are in (or were: a superset)."""
    pages: dict[str, dict] = field(default_factory=dict)
    inputs: dict[str, str | None] = field(default_factory=dict)
    folders: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, pages: dict[str, dict]) -> "Manifest":
        return cls(pages, {p: e.get("input") for p, e in pages.items()}, {p.rpartition("/")[0] for p in pages})

    def add(self, path: str, entry: dict) -> None:
        self.pages[path] = entry
        self.inputs[path] = entry["input"]
        self.folders.add(path.rpartition("/")[0])


# output directory -> (the manifest file's identity when this process last read or wrote it, it)
_MANIFESTS: dict[Path, tuple[tuple[int, int, int], Manifest]] = {}


@dataclass
class WriteReport:
    pages: int = 0  # pages and static files in the site
    rendered: int = 0
    written: int = 0
    removed: int = 0


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


def _fingerprint(made_of: tuple) -> str:
    return _digest(orjson.dumps(made_of))  # dataclasses and datetimes as JSON; anything else fails


def fingerprint(page: Page, common: str) -> str:
    """What the page is made from: its key if it has one, else its whole context.

    A key is hashed again only when it differs from the one this path had last (keys are
    plain data made afresh each build); a context may hold the state's own objects, so it
    is always hashed.
    """
    if page.key is None:
        return _fingerprint((common, page.template, page.root, page.make_context()))
    made_of = (common, page.template, page.root, page.key)
    memo = _FINGERPRINTS.get(page.path)
    if memo is not None and memo[0] == made_of:
        return memo[1]
    fp = _fingerprint(made_of)
    _FINGERPRINTS[page.path] = (made_of, fp)
    return fp


def family_fingerprints(f: Family, common: str) -> list[str]:
    """Each member's fingerprint, as ``fingerprint`` gives it: the last build's where the
    member at that place has the same path and key."""
    head = (common, f.template, f.root)
    memo = _FAMILIES.get(f.name)
    paths, keys, fps = memo[3:] if memo is not None and memo[:3] == head else ([], [], [])
    out = fps[:len(f.paths)]
    changed = map(operator.or_, map(operator.ne, paths, f.paths), map(operator.ne, keys, f.keys))
    for i in compress(count(), changed):  # pairwise at C speed; only the changed in Python
        out[i] = _fingerprint((*head, f.keys[i]))
    out += [_fingerprint((*head, key)) for key in f.keys[len(out):]]
    _FAMILIES[f.name] = (*head, f.paths, f.keys, out)
    return out


class Templates:
    """The site's templates of one design, compiled once and never checked on disk again (a new
    design makes new ``Templates``), and the fragments they rendered lately."""

    def __init__(self) -> None:
        self.env: Environment = environment().overlay(auto_reload=False, cache_size=400)
        self.env.getattr = _items_first(self.env.getattr)  # type: ignore[method-assign]
        self.fragments: OrderedDict[tuple[str, object], Markup] = OrderedDict()
        self.kept = 0  # characters in self.fragments

    def render(self, page: Page, site: dict) -> str:
        context = {k: self.fragment(v) if isinstance(v, Fragment) else v for k, v in page.make_context().items()}
        return self.env.get_template(f"site/{page.template}").render(
            site=site, root=page.root, path=page.path, **context)

    def fragment(self, f: Fragment) -> Markup:
        key = (f.macro, f.key)
        made = self.fragments.get(key)
        if made is None:
            made = getattr(self.env.get_template("site/macros.html").module, f.macro)(*f.args())
            self.fragments[key] = made
            self.kept += len(made)
            while self.kept > FRAGMENTS:
                self.kept -= len(self.fragments.popitem(last=False)[1])
        else:
            self.fragments.move_to_end(key)
        return made


def _items_first(getattr_: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
    """Jinja looks ``x.y`` up as an attribute before an item, which for a dict costs a raised
    AttributeError each time. Contexts are dicts and the site's templates call no dict method,
    so a dict's item comes first (the same value Jinja would find second)."""
    def get(obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute in obj:
            return obj[attribute]
        return getattr_(obj, attribute)
    return get


@lru_cache(maxsize=1)
def templates(design: str) -> Templates:
    return Templates()


def forget() -> None:
    """Drop the memos of fingerprints, templates and fragments: the next build makes them afresh."""
    _FINGERPRINTS.clear()
    _FAMILIES.clear()
    templates.cache_clear()


def _identity(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


class Writer:
    """Writes pages into ``out``; ``site`` is the context every page shares (name, CSP...)."""

    def __init__(self, out: Path, site: dict):
        self.out = out.resolve()
        self.site = site
        self.old = self._load()
        self.present = self._files()
        self.new = Manifest(folders=set(self.old.folders))
        self.made_dirs: set[Path] = set()
        self.report = WriteReport()
        design = design_hash()
        self.templates = templates(design)
        self.common = design + orjson.dumps(site, option=orjson.OPT_SORT_KEYS).decode()

    def _files(self) -> set[str]:
        """The files now in the directories the manifest names (a listing each, not a stat per page);
        a page in a directory not listed is missing, so it is written."""
        found: set[str] = set()
        for folder in {"", *self.old.folders}:
            try:
                names = os.listdir(self.out / folder)
            except OSError:
                continue
            found.update(map(f"{folder}/".__add__, names) if folder else names)
        return found

    def _load(self) -> Manifest:
        identity = _identity(self.out / MANIFEST)
        if identity is None:
            return Manifest()
        known = _MANIFESTS.get(self.out)
        if known is not None and known[0] == identity:
            return known[1]
        try:
            data = orjson.loads((self.out / MANIFEST).read_bytes())
        except (OSError, ValueError):
            return Manifest()
        manifest = Manifest.of(data.get("pages", {}) if data.get("format") == FORMAT else {})
        _MANIFESTS[self.out] = (identity, manifest)
        return manifest

    def add(self, item: Page | Family) -> None:
        if isinstance(item, Family):
            self.family(item)
        else:
            self.page(item)

    def page(self, page: Page) -> None:
        fp = fingerprint(page, self.common)
        if self._keep([page.path], [fp]):
            self._render(page, fp)

    def family(self, f: Family) -> None:
        fps = family_fingerprints(f, self.common)
        for i in self._keep(f.paths, fps):
            self._render(f.page(i), fps[i])

    def _keep(self, paths: list[str], fps: list[str]) -> list[int]:
        """Carry over the pages made from the same as in the last build and still there (a family's
        thousands at C speed); returns the indexes of the others, to be rendered."""
        same = list(map(operator.and_, map(operator.eq, map(self.old.inputs.get, paths), fps),
                        map(self.present.__contains__, paths)))
        kept = list(compress(paths, same))
        self.new.pages.update(zip(kept, map(self.old.pages.__getitem__, kept)))
        self.new.inputs.update(zip(kept, compress(fps, same)))
        self.report.pages += len(kept)
        return list(compress(count(), map(operator.not_, same)))

    def _render(self, page: Page, fp: str) -> None:
        html = self.templates.render(page, self.site)
        self.report.rendered += 1
        self._put(page.path, html.encode(), fp)

    def static(self) -> None:
        for f in sorted(STATIC.rglob("*")):
            if f.is_file():
                self._put(f"static/{f.relative_to(STATIC).as_posix()}", f.read_bytes(), None)

    def _put(self, path: str, data: bytes, fp: str | None) -> None:
        digest = _digest(data)
        target = self.out / path
        old = self.old.pages.get(path)
        self.new.add(path, {"input": fp, "sha256": digest})
        self.report.pages += 1
        if old and old.get("sha256") == digest and path in self.present:
            return
        if target.parent not in self.made_dirs:
            target.parent.mkdir(parents=True, exist_ok=True)
            self.made_dirs.add(target.parent)
        tmp = target.with_name(f".{target.name}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, target)
        self.report.written += 1

    def finish(self) -> WriteReport:
        """Remove pages that are no longer generated, then save the manifest."""
        for path in self.old.pages.keys() - self.new.pages.keys():
            (self.out / path).unlink(missing_ok=True)
            self.report.removed += 1
        if self.new.pages != self.old.pages or MANIFEST not in self.present:
            self.out.mkdir(parents=True, exist_ok=True)
            tmp = self.out / f"{MANIFEST}.tmp"
            tmp.write_bytes(orjson.dumps({"format": FORMAT, "pages": self.new.pages}))
            os.replace(tmp, self.out / MANIFEST)
            identity = _identity(self.out / MANIFEST)
            if identity is not None:
                _MANIFESTS[self.out] = (identity, self.new)
        return self.report
