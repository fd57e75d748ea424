"""The writer: render pages and write only the files whose bytes changed.

The output directory keeps a manifest (``.manifest/``, in ``PARTS`` files by a
hash of the path, so that a rebuild rewrites the parts it changed) of every page
it holds: a fingerprint of what the page was rendered from and the SHA-256 of its
bytes. A page whose fingerprint is unchanged is not even rendered; a page that
renders to the same bytes is not rewritten; pages no longer generated are
removed. So after one new event a rebuild touches only the pages it changed,
and a web server or rsync sees only those.

The daemon rebuilds in one process every few seconds, so what a build needs
from the last one is kept in its ``SiteMemory`` (nomic/website/memory.py): each
page's fingerprint with the key it was made from (hashed again only when the key
differs), the manifest as last written (read again only when a part changed), the
listing of each directory (listed again only when the directory changed), the
compiled templates of the current design, and recently rendered fragments.

A check build (``check=True``) renders the keyed pages it would have kept too, and
raises ``StaleKeys`` naming each whose bytes differ from the last build's: a key that
misses something its page shows.
"""
from __future__ import annotations

import hashlib
import operator
import os
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import compress, count
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
from jinja2 import Environment
from markupsafe import Markup

from rendering import STATIC, TEMPLATES, FixedGlobals, environment
from nomic.website.pages import Family, Fragment, Page, RawFile
from nomic.website.shards import shard_of

if TYPE_CHECKING:
    from nomic.website.memory import SiteMemory
    from nomic.website.search import SearchIndex

MANIFEST = ".manifest"  # a directory of PARTS files, 000.json ...
OLD_MANIFEST = ".manifest.json"  # one file, before format 3: read no more, removed
FORMAT = 4  # 4: an indexed page's entry names its shard of the search index
PARTS = 256  # a rebuild that changes a few pages rewrites a few parts of ~1/256 of the manifest
FRAGMENTS = 32_000_000  # characters of rendered fragments kept (a list page's table is ~30,000)
IN_TURN = 256  # directories a rebuild with the last build's manifest looks at again, in turn (``Writer._files``)


def _part(path: str) -> int:
    return zlib.crc32(path.encode()) % PARTS


@dataclass
class Manifest:
    """Each page's entry (the fingerprint of its inputs, the SHA-256 of its bytes, and for an indexed
    page its shard of the search index: nomic/website/shards.py), by part of the manifest
    (``_part``); its inputs alone, to compare thousands at once; the directories the pages are in
    (or were: a superset); the pages of each shard; the parts changed since they were last written."""
    pages: dict[str, dict] = field(default_factory=dict)
    inputs: dict[str, str | None] = field(default_factory=dict)
    folders: set[str] = field(default_factory=set)
    shards: dict[str, set[str]] = field(default_factory=dict)
    parts: list[dict[str, dict]] = field(default_factory=lambda: [{} for _ in range(PARTS)])
    dirty: set[int] = field(default_factory=set)
    encoded: dict[str, bytes] = field(default_factory=dict)  # each entry as its part's file holds it

    def _encode(self, path: str, entry: dict) -> None:
        self.encoded[path] = orjson.dumps(path) + b":" + orjson.dumps(entry, option=orjson.OPT_SORT_KEYS)

    @classmethod
    def of(cls, pages: dict[str, dict]) -> "Manifest":
        made = cls(folders={p.rpartition("/")[0] for p in pages})
        for path, entry in pages.items():
            made.pages[path] = made.parts[_part(path)][path] = entry
            made.inputs[path] = entry.get("input")
            made._encode(path, entry)
            if "shard" in entry:
                made.shards.setdefault(entry["shard"], set()).add(path)
        return made

    def add(self, path: str, entry: dict) -> None:
        old = self.pages.get(path)
        if old == entry:
            return
        k = _part(path)
        self.pages[path] = self.parts[k][path] = entry
        self.inputs[path] = entry["input"]
        self._encode(path, entry)
        self.folders.add(path.rpartition("/")[0])
        self.dirty.add(k)
        if old is not None and "shard" in old:
            self.shards[old["shard"]].discard(path)
        if "shard" in entry:
            self.shards.setdefault(entry["shard"], set()).add(path)

    def remove(self, path: str) -> None:
        k = _part(path)
        if "shard" in self.pages[path]:
            self.shards[self.pages[path]["shard"]].discard(path)
        del self.pages[path], self.inputs[path], self.parts[k][path], self.encoded[path]
        self.dirty.add(k)

    def part(self, k: int) -> bytes:
        """Part ``k``'s file: what ``orjson.dumps`` with sorted keys makes of ``{"format": FORMAT, "pages":
        ...}``, joined from its entries encoded once each (a rebuild rewrites about ten parts, each of
        1/256 of the pages: 90 at 22,000 pages)."""
        encoded = self.encoded
        return b'{"format":%d,"pages":{%b}}' % (FORMAT, b",".join([encoded[p] for p in sorted(self.parts[k])]))

    def members(self, shard: str) -> list[str]:
        return sorted(self.shards.get(shard, ()))


def manifest_pages(out: Path) -> dict[str, dict]:
    """The entries of the manifest in ``out`` by page (none if a part cannot be read)."""
    pages: dict[str, dict] = {}
    for k in range(PARTS):
        try:
            data = orjson.loads((out / MANIFEST / f"{k:03d}.json").read_bytes())
        except FileNotFoundError:
            continue
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("pages"), dict):
            return {}
        pages.update(data["pages"])
    return pages


@dataclass
class Output:
    """What the last build of an output directory left, for the next (``SiteMemory.outputs``): its
    manifest with its directory's identity; each directory's identity and the files listed in it
    (``present``, as paths from the root); the families whose every member that build kept or
    wrote, each with the memo it left (``FamilyMemo``); the directories in the order they were
    first seen (``order``), and where the next build's turn of them starts (``turn``); the paths
    that build made, its single pages and files (``singles``) and each family's (``families``):
    together the pages its manifest holds, so that the next build finds what it no longer makes
    by what changed (``Writer._gone``)."""
    manifest: Manifest
    parts: tuple[int, int] | None  # the manifest's directory's identity (``_folder_identity``)
    folders: dict[str, tuple[int, int] | None] = field(default_factory=dict)
    names: dict[str, set[str]] = field(default_factory=dict)
    present: set[str] = field(default_factory=set)
    settled: dict[str, object] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    turn: int = 0
    singles: set[str] | None = None  # None: not known (the build did not finish)
    families: dict[str, list[str]] = field(default_factory=dict)

    def saw(self, folder: str, identity: tuple[int, int] | None) -> None:
        """``folder`` has ``identity``, as listed or written."""
        if folder not in self.folders:
            self.order.append(folder)
        self.folders[folder] = identity

    def in_turn(self) -> list[str]:
        """The root and the next ``IN_TURN`` directories, in turn."""
        if len(self.order) <= IN_TURN:
            return ["", *self.order]
        start, self.turn = self.turn, (self.turn + IN_TURN) % len(self.order)
        return ["", *self.order[start:start + IN_TURN], *self.order[:max(0, start + IN_TURN - len(self.order))]]


class StaleKeys(AssertionError):
    """A check build found pages whose key is unchanged but whose bytes are not."""


@dataclass
class WriteReport:
    pages: int = 0  # pages and static files in the site
    rendered: int = 0
    written: int = 0
    removed: int = 0
    shards: dict[str, list[str]] = field(default_factory=dict)  # the search index's shards with a page written
    # or removed, each with its pages now (none: the shard is gone), for nomic/website/search.py
    search: "SearchIndex | None" = None  # what this build indexed again, when it did


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


# a family's name -> (common, template, root, its members' paths, keys and fingerprints, its version)
FamilyMemo = dict[str, tuple[str, str, str, list[str], Sequence[object], list[str], object]]


def family_fingerprints(f: Family, common: str, memo: FamilyMemo) -> tuple[list[str], list[int]]:
    """Each member's fingerprint, as ``fingerprint`` gives it: the last build's where the
    member at that place has the same path and key; and the places where it has not (as the
    family's ``changes`` say, when they are relative to the version the memo holds)."""
    head = (common, f.template, f.root)
    known = memo.get(f.name)
    paths, keys, fps, version = known[3:] if known is not None and known[:3] == head else ([], [], [], None)
    out = fps[:len(f.paths)]
    if f.changes is not None and version is not None and f.changes[0] is version and len(f.paths) >= len(paths):
        changed = sorted(i for i in f.changes[2] if i < len(out))
    else:
        changed = list(compress(count(), map(operator.or_, map(operator.ne, paths, f.paths),
                                             map(operator.ne, keys, f.keys))))  # pairwise at C speed
    for i in changed:  # only the changed in Python
        out[i] = _fingerprint((*head, f.keys[i]))
    changed += range(len(out), len(f.keys))
    out += [_fingerprint((*head, key)) for key in f.keys[len(out):]]
    memo[f.name] = (*head, f.paths, f.keys, out, f.changes[1] if f.changes is not None else None)
    return out, changed


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
        context = {k: self.fragment(v, check) if isinstance(v, Fragment) else self.fragment_list(v, check)
                   if type(v) is list and v and isinstance(v[0], Fragment) else v for k, v in page.make_context().items()}
        chrome = {part: self.fragment(f, check) for part, f in _chrome(page, site, common).items()}
        return self.env.get_template(f"site/{page.template}").render(
            site=site, root=page.root, path=page.path, site_chrome=chrome, **context)

    def fragment_list(self, fs: list[Fragment], check: bool = False) -> list[Markup]:
        """A list of fragments (a long table's blocks of rows), each rendered as ``fragment`` does."""
        return [self.fragment(f, check) for f in fs]

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


class SiteEnvironment(FixedGlobals):
    """Jinja looks ``x.y`` up as an attribute before an item, which for a dict costs a raised
    AttributeError each time. Contexts are dicts and the site's templates call no dict method,
    so a dict's item comes first (the same value Jinja would find second). ``getattr`` is the
    method Jinja's compiled templates call for ``x.y``, meant to be overridden (its sandbox does).
    Its globals are never changed once made, so each template keeps them in a dict (``FixedGlobals``)."""

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


def _folder_identity(path: Path) -> tuple[int, int] | None:
    """A directory changes its modification time when a name is added to it or taken out."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_ino, st.st_mtime_ns


class Writer:
    """Writes pages into ``out``; ``site`` is the context every page shares (name, CSP, navigation...).
    With ``check``, pages kept by their key are rendered too and compared (``StaleKeys``).

    The manifest is changed in place as pages are kept, written and removed; the last build's
    ``Output`` is taken out of the memory while a build runs and put back by ``finish``, so a
    build that fails leaves the next to read the directory again.
    """

    def __init__(self, out: Path, site: dict, ruleset: str, memory: "SiteMemory", check: bool = False):
        self.out = out.resolve()
        self.site = site
        self.memory = memory
        self.check = check
        self.stale: list[str] = []
        last = memory.outputs.pop(self.out, None)
        self.manifest, self.trusted = self._load(last)
        self.kept = Output(self.manifest, None)
        self._files(last)
        # families the last build settled, when nothing changed on disk since
        self.settled = last.settled if last is not None and self.trusted and not self.listed else {}
        self.made: set[str] = set()  # the paths this build makes: what the manifest holds besides is removed
        self.families: dict[str, list[str]] = {}  # ... and its families' paths, by family
        self.last = last if self.trusted else None  # the last build, when its manifest is this one's
        self.touched: set[str] = set()  # directories written in or removed from
        self.changed_shards: set[str] = set()  # of the search index, with a page written or removed
        self.made_dirs: set[Path] = set()
        self.report = WriteReport()
        design = design_hash(ruleset)
        self.templates = memory.templates(ruleset, design)
        self.common = design + orjson.dumps(site, option=orjson.OPT_SORT_KEYS).decode()

    def _parts(self) -> tuple[int, int] | None:
        """The manifest's directory's identity: a part replaced changes it."""
        return _folder_identity(self.out / MANIFEST)

    def _load(self, last: "Output | None") -> tuple[Manifest, bool]:
        """The manifest, and whether it is the one the last build left in memory (unchanged on disk)."""
        if last is not None and last.parts is not None and last.parts == self._parts():
            return last.manifest, True
        return Manifest.of(manifest_pages(self.out)), False

    def _files(self, last: "Output | None") -> None:
        """The files now in the directories the manifest names: a listing each, not a stat per page,
        and only of a directory that changed since the last build listed or wrote it; a page in a
        directory not listed is missing, so it is written. (A name added or taken out by someone
        else within the same clock tick as this writer's own last change to that directory is seen
        when the directory next changes.)

        With the manifest the last build left (the daemon's rebuilds), the directories are known
        and only changes made by someone else are looked for: in the root and ``IN_TURN`` others
        a build, in turn, so that a rebuild does not stat every message's directory of the mail
        archive (a page removed behind the writer's back is written again within as many builds
        as there are directories over ``IN_TURN``); a build with another manifest looks at all."""
        kept, self.listed = self.kept, False
        if last is not None:
            kept.folders, kept.names, kept.present = last.folders, last.names, last.present
            kept.order, kept.turn = last.order, last.turn
        for folder in kept.in_turn() if self.trusted else {"", *self.manifest.folders}:
            identity = _folder_identity(self.out / folder)
            if folder in kept.folders and kept.folders[folder] == identity and identity is not None:
                continue
            kept.present -= kept.names.pop(folder, set())
            try:
                names = set(map(f"{folder}/".__add__, os.listdir(self.out / folder)) if folder
                            else os.listdir(self.out))
            except OSError:
                names = set()
            kept.saw(folder, identity)
            kept.names[folder] = names
            kept.present |= names
            self.listed = True

    @property
    def present(self) -> set[str]:
        return self.kept.present

    def add(self, item: Page | Family | RawFile) -> None:
        if isinstance(item, Family):
            self.family(item)
        elif isinstance(item, RawFile):
            self.raw(item)
        else:
            self.page(item)

    def raw(self, f: RawFile) -> None:
        fp = _fingerprint(("raw", f.path, f.key))
        self.made.add(f.path)
        if not self._keep([f.path], [fp])[0]:
            self._put(f.path, f.data(), fp)

    def page(self, page: Page) -> None:
        fp = fingerprint(page, self.common, self.memory.fingerprints)
        self.made.add(page.path)
        if not self._keep([page.path], [fp])[0]:
            self._render(page, fp)
        elif self.check and page.key is not None:
            self._compare(page)

    def family(self, f: Family) -> None:
        """A family whose every member the last build kept or wrote (with the memo it left, and
        nothing changed on disk since) needs only its changed members looked at."""
        memo = self.memory.families.get(f.name)
        settled = memo is not None and self.settled.get(f.name) is memo
        fps, changed = family_fingerprints(f, "raw" if f.data else self.common, self.memory.families)
        self.families[f.name] = f.paths
        places = changed if settled else range(len(f.paths))
        self.report.pages += len(f.paths) - len(places)
        kept = self._keep([f.paths[i] for i in places], [fps[i] for i in places])
        for i in compress(places, map(operator.not_, kept)):
            if f.data:
                self._put(f.paths[i], f.data(i), fps[i])
            else:
                self._render(f.page(i), fps[i])
        if self.check and not f.data:
            for i in set(range(len(f.paths))).difference(compress(places, map(operator.not_, kept))):
                self._compare(f.page(i))
        self.kept.settled[f.name] = self.memory.families[f.name]

    def _keep(self, paths: list[str], fps: list[str]) -> list[bool]:
        """Which pages are made from the same as in the last build and still there (thousands at
        C speed): they are kept as they are; the others are to be rendered."""
        same = list(map(operator.and_, map(operator.eq, map(self.manifest.inputs.get, paths), fps),
                        map(self.present.__contains__, paths)))
        self.report.pages += sum(same)
        return same

    def _compare(self, page: Page) -> None:
        """Check mode: a page kept by its key must render to the bytes it was written with."""
        html = self.templates.render(page, self.site, self.common, check=True)
        if _digest(html.encode()) != self.manifest.pages[page.path]["sha256"]:
            self.stale.append(page.path)

    def _render(self, page: Page, fp: str) -> None:
        html = self.templates.render(page, self.site, self.common, self.check)
        self.report.rendered += 1
        self._put(page.path, html.encode(), fp)

    def static(self) -> None:
        for f in sorted(STATIC.rglob("*")):
            if f.is_file():
                path = f"static/{f.relative_to(STATIC).as_posix()}"
                self.made.add(path)
                self._put(path, f.read_bytes(), None)

    def _put(self, path: str, data: bytes, fp: str | None) -> None:
        digest = _digest(data)
        target = self.out / path
        old = self.manifest.pages.get(path)
        entry = {"input": fp, "sha256": digest}
        shard = shard_of(path, data)
        if shard is not None:
            entry["shard"] = shard
        self.manifest.add(path, entry)
        self.report.pages += 1
        if old and old.get("sha256") == digest and path in self.present:
            return
        self.changed_shards.update(s for s in (shard, (old or {}).get("shard")) if s)
        if target.parent not in self.made_dirs:
            target.parent.mkdir(parents=True, exist_ok=True)
            self.made_dirs.add(target.parent)
            self._touch(path.rpartition("/")[0], ancestors=True)
        tmp = target.with_name(f".{target.name}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, target)
        self._touch(path.rpartition("/")[0])
        self.present.add(path)
        self.kept.names.setdefault(path.rpartition("/")[0], set()).add(path)
        self.report.written += 1

    def _touch(self, folder: str, ancestors: bool = False) -> None:
        self.touched.add(folder)
        while ancestors and folder:
            folder = folder.rpartition("/")[0]
            self.touched.add(folder)

    def finish(self) -> WriteReport:
        """Remove pages that are no longer generated, then save the parts of the manifest that
        changed; in check mode, then raise ``StaleKeys`` if a kept page or a remembered fragment
        rendered differently."""
        for path in self._gone():
            if "shard" in self.manifest.pages[path]:
                self.changed_shards.add(self.manifest.pages[path]["shard"])
            (self.out / path).unlink(missing_ok=True)
            self.manifest.remove(path)
            self.present.discard(path)
            self.kept.names.get(path.rpartition("/")[0], set()).discard(path)
            self._touch(path.rpartition("/")[0])
            self.report.removed += 1
        self._save()
        self.report.shards = {s: self.manifest.members(s) for s in sorted(self.changed_shards)}
        stale = self.stale + self.templates.stale
        self.templates.stale = []
        if stale:
            raise StaleKeys(f"unchanged key, changed bytes: {', '.join(stale)}")
        return self.report

    def _gone(self) -> list[str]:
        """The pages of the manifest this build did not make. With the last build's manifest (the
        daemon's rebuilds), those it made and this one did not: its single pages, and the paths of
        each family that are not a prefix of the family's now (a list compared at C speed, or the
        same list: a family's paths are made afresh or only added to); only if any are found is
        every path this build made gathered. Otherwise every page of the manifest is looked at."""
        self.kept.singles, self.kept.families = self.made, self.families
        last = self.last
        if last is None or last.singles is None:
            return sorted(self.manifest.pages.keys() - self.made.union(*self.families.values()))
        gone = last.singles - self.made
        for name, old in last.families.items():
            new = self.families.get(name)
            if new is None:
                gone.update(old)
            elif new is not old and new[:len(old)] != old:
                gone.update(set(old).difference(new))
        if gone:
            gone.difference_update(self.made, *self.families.values())
        return sorted(path for path in gone if path in self.manifest.pages)

    def _save(self) -> None:
        """Write the manifest's changed parts (all of them, where none is on disk yet), drop the
        manifest of before format 3, and leave this build's ``Output`` to the next."""
        folder = self.out / MANIFEST
        if not self.trusted and not folder.is_dir():
            self.manifest.dirty.update(range(PARTS))
        if self.manifest.dirty:
            folder.mkdir(parents=True, exist_ok=True)
            self._touch("", ancestors=True)
        for k in sorted(self.manifest.dirty):
            tmp = folder / f".{k:03d}.json.tmp"
            tmp.write_bytes(self.manifest.part(k))
            os.replace(tmp, folder / f"{k:03d}.json")
        self.manifest.dirty.clear()
        if OLD_MANIFEST in self.present:
            (self.out / OLD_MANIFEST).unlink(missing_ok=True)
            self.present.discard(OLD_MANIFEST)
            self._touch("")
        for touched in self.touched:
            self.kept.saw(touched, _folder_identity(self.out / touched))
        self.kept.parts = self._parts()
        self.memory.outputs[self.out] = self.kept
