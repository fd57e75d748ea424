"""The writer: render pages and write only the files whose bytes changed.

The output directory keeps a manifest (``.manifest.json``) of every page it
holds: a fingerprint of what the page was rendered from and the SHA-256 of its
bytes. A page whose fingerprint is unchanged is not even rendered; a page that
renders to the same bytes is not rewritten; pages no longer generated are
removed. So after one new event a rebuild touches only the pages it changed,
and a web server or rsync sees only those.

The daemon rebuilds in one process every few seconds, so what a build needs
from the last one is kept in its ``SiteMemory`` (nomic/website/memory.py): each
page's fingerprint with the key it was made from (hashed again only when the key
differs), the manifest as last written (read again only when the file changed),
the compiled templates of the current design, and recently rendered fragments.

A check build (``check=True``) renders the keyed pages it would have kept too, and
raises ``StaleKeys`` naming each whose bytes differ from the last build's: a key that
misses something its page shows.
"""
from __future__ import annotations

import hashlib
import operator
import os
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import compress, count
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
from jinja2 import Environment
from markupsafe import Markup

from rendering import STATIC, TEMPLATES, environment
from nomic.website.pages import Family, Fragment, Page, RawFile

if TYPE_CHECKING:
    from nomic.website.memory import SiteMemory
    from nomic.website.search import SearchIndex

MANIFEST = ".manifest.json"
FORMAT = 2
FRAGMENTS = 32_000_000  # characters of rendered fragments kept (a list page's table is ~30,000)


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


class StaleKeys(AssertionError):
    """A check build found pages whose key is unchanged but whose bytes are not."""


@dataclass
class WriteReport:
    pages: int = 0  # pages and static files in the site
    rendered: int = 0
    written: int = 0
    removed: int = 0
    search: "SearchIndex | None" = None  # the search index, when this build made one


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def design_hash(ruleset: str) -> str:
    """Templates (shared and the ruleset's) and static files: a change to any re-renders every page."""
    h = hashlib.sha256()
    for base in (TEMPLATES / "site", TEMPLATES / ruleset / "site", STATIC):
        for f in sorted(base.rglob("*")):
            if f.is_file():
                h.update(str(f.relative_to(base)).encode() + b"\0" + f.read_bytes())
    return h.hexdigest()


def _fingerprint(made_of: tuple) -> str:
    return _digest(orjson.dumps(made_of))  # dataclasses and datetimes as JSON; anything else fails


def fingerprint(page: Page, common: str, memo: dict[str, tuple[object, str]]) -> str:
    """What the page is made from: its key if it has one, else its whole context.

    A key is hashed again only when it differs from the one this path had last (keys are
    plain data made afresh each build); a context may hold the state's own objects, so it
    is always hashed.
    """
    if page.key is None:
        return _fingerprint((common, page.template, page.root, page.make_context()))
    made_of = (common, page.template, page.root, page.key)
    known = memo.get(page.path)
    if known is not None and known[0] == made_of:
        return known[1]
    fp = _fingerprint(made_of)
    memo[page.path] = (made_of, fp)
    return fp


# a family's name -> (common, template, root, its members' paths, keys and fingerprints)
FamilyMemo = dict[str, tuple[str, str, str, list[str], Sequence[object], list[str]]]


def family_fingerprints(f: Family, common: str, memo: FamilyMemo) -> list[str]:
    """Each member's fingerprint, as ``fingerprint`` gives it: the last build's where the
    member at that place has the same path and key."""
    head = (common, f.template, f.root)
    known = memo.get(f.name)
    paths, keys, fps = known[3:] if known is not None and known[:3] == head else ([], [], [])
    out = fps[:len(f.paths)]
    changed = map(operator.or_, map(operator.ne, paths, f.paths), map(operator.ne, keys, f.keys))
    for i in compress(count(), changed):  # pairwise at C speed; only the changed in Python
        out[i] = _fingerprint((*head, f.keys[i]))
    out += [_fingerprint((*head, key)) for key in f.keys[len(out):]]
    memo[f.name] = (*head, f.paths, f.keys, out)
    return out


class Templates:
    """The site's templates of one design (the ruleset's first, the shared second), compiled once
    and never checked on disk again (a new design makes new ``Templates``), and the fragments they
    rendered lately. ``stale`` collects the fragments a check found changed under the same key."""

    def __init__(self, ruleset: str) -> None:
        self.env: Environment = environment(ruleset, SiteEnvironment).overlay(auto_reload=False, cache_size=400)
        self.fragments: OrderedDict[tuple[str, str, object], Markup] = OrderedDict()
        self.kept = 0  # characters in self.fragments
        self.stale: list[str] = []

    def render(self, page: Page, site: dict, common: str, check: bool = False) -> str:
        """``page`` in ``site``, whose JSON (with the design's hash) is ``common``."""
        context = {k: self.fragment(v, check) if isinstance(v, Fragment) else v
                   for k, v in page.make_context().items()}
        chrome = {part: self.fragment(f, check) for part, f in _chrome(page, site, common).items()}
        return self.env.get_template(f"site/{page.template}").render(
            site=site, root=page.root, path=page.path, site_chrome=chrome, **context)

    def fragment(self, f: Fragment, check: bool = False) -> Markup:
        key = (f.template, f.macro, f.key)
        made = self.fragments.get(key)
        if check and made is not None and self._make(f) != made:
            self.stale.append(f"fragment {f.macro} {f.key!r}")
        if made is None:
            made = self._make(f)
            self.fragments[key] = made
            self.kept += len(made)
            while self.kept > FRAGMENTS:
                self.kept -= len(self.fragments.popitem(last=False)[1])
        else:
            self.fragments.move_to_end(key)
        return made

    def _make(self, f: Fragment) -> Markup:
        return getattr(self.env.get_template(f"site/{f.template}").module, f.macro)(*f.args())  # type: ignore[no-any-return]


def _chrome(page: Page, site: dict, common: str) -> dict[str, Fragment]:
    """What ``page`` shows of the site around its content (``site/chrome.html``): the feeds' links,
    the navigation and the footer. They depend on the page only through its depth and, for the
    navigation, which entry is current (the page's own path if the navigation names it, else its
    first folder); so thousands of pages share each, rendered once (they were a third of a
    submission page's rendering)."""
    root, links = page.root, [href for href, _ in site["nav"]]
    where = page.path if page.path in links or "/" not in page.path else page.path.partition("/")[0] + "/"
    return {"nav": Fragment("nav", (common, root, where), lambda: (site, root, page.path), "chrome.html"),
            "feeds": Fragment("feeds", (common, root), lambda: (site, root), "chrome.html"),
            "footer": Fragment("footer", (common, root), lambda: (site, root), "chrome.html")}


class SiteEnvironment(Environment):
    """Jinja looks ``x.y`` up as an attribute before an item, which for a dict costs a raised
    AttributeError each time. Contexts are dicts and the site's templates call no dict method,
    so a dict's item comes first (the same value Jinja would find second). ``getattr`` is the
    method Jinja's compiled templates call for ``x.y``, meant to be overridden (its sandbox does)."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute in obj:
            return obj[attribute]
        return super().getattr(obj, attribute)


def _identity(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


class Writer:
    """Writes pages into ``out``; ``site`` is the context every page shares (name, CSP, navigation...).
    With ``check``, pages kept by their key are rendered too and compared (``StaleKeys``)."""

    def __init__(self, out: Path, site: dict, ruleset: str, memory: "SiteMemory", check: bool = False):
        self.out = out.resolve()
        self.site = site
        self.memory = memory
        self.check = check
        self.stale: list[str] = []
        self.old = self._load()
        self.present = self._files()
        self.new = Manifest(folders=set(self.old.folders))
        self.made_dirs: set[Path] = set()
        self.report = WriteReport()
        design = design_hash(ruleset)
        self.templates = memory.templates(ruleset, design)
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
        known = self.memory.manifests.get(self.out)
        if known is not None and known[0] == identity:
            return known[1]
        try:
            data = orjson.loads((self.out / MANIFEST).read_bytes())
        except (OSError, ValueError):
            return Manifest()
        manifest = Manifest.of(data.get("pages", {}) if data.get("format") == FORMAT else {})
        self.memory.manifests[self.out] = (identity, manifest)
        return manifest

    def add(self, item: Page | Family | RawFile) -> None:
        if isinstance(item, Family):
            self.family(item)
        elif isinstance(item, RawFile):
            self.raw(item)
        else:
            self.page(item)

    def raw(self, f: RawFile) -> None:
        fp = _fingerprint(("raw", f.path, f.key))
        if not self._keep([f.path], [fp])[0]:
            self._put(f.path, f.data(), fp)

    def page(self, page: Page) -> None:
        fp = fingerprint(page, self.common, self.memory.fingerprints)
        if not self._keep([page.path], [fp])[0]:
            self._render(page, fp)
        elif self.check and page.key is not None:
            self._compare(page)

    def family(self, f: Family) -> None:
        fps = family_fingerprints(f, self.common, self.memory.families)
        kept = self._keep(f.paths, fps)
        for i in compress(count(), map(operator.not_, kept)):
            self._render(f.page(i), fps[i])
        if self.check:
            for i in compress(count(), kept):
                self._compare(f.page(i))

    def _keep(self, paths: list[str], fps: list[str]) -> list[bool]:
        """Carry over the pages made from the same as in the last build and still there (a family's
        thousands at C speed); returns which were (the others are to be rendered)."""
        same = list(map(operator.and_, map(operator.eq, map(self.old.inputs.get, paths), fps),
                        map(self.present.__contains__, paths)))
        kept = list(compress(paths, same))
        self.new.pages.update(zip(kept, map(self.old.pages.__getitem__, kept)))
        self.new.inputs.update(zip(kept, compress(fps, same)))
        self.report.pages += len(kept)
        return same

    def _compare(self, page: Page) -> None:
        """Check mode: a page kept by its key must render to the bytes it was written with."""
        html = self.templates.render(page, self.site, self.common, check=True)
        if _digest(html.encode()) != self.old.pages[page.path]["sha256"]:
            self.stale.append(page.path)

    def _render(self, page: Page, fp: str) -> None:
        html = self.templates.render(page, self.site, self.common, self.check)
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
        """Remove pages that are no longer generated, then save the manifest; in check mode, then
        raise ``StaleKeys`` if a kept page or a remembered fragment rendered differently."""
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
                self.memory.manifests[self.out] = (identity, self.new)
        stale = self.stale + self.templates.stale
        self.templates.stale = []
        if stale:
            raise StaleKeys(f"unchanged key, changed bytes: {', '.join(stale)}")
        return self.report
