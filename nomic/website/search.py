"""Full-text search with no server: a Pagefind index of the built site, in ``pagefind/``, in shards.

``nomic build`` makes it after the pages are written. Pages say what is indexed:
``data-pagefind-body`` on the main content of the pages that hold the game's texts (rules
with every version, matters, judgments, the ledger, the list's threads and messages; not navigation,
footers or listings, which repeat them and would double the index's cost), and
``data-pagefind-filter`` attributes of ``<main>`` (where Pagefind, given ``--root-selector main``, reads them) give the filters kind (rule, proposal, post...), author and
month. Pagefind is shown only those pages (hard links in a folder of its own), so it does not parse
every listing to find nothing there; ``IGNORED`` and ``data-pagefind-ignore`` leave out, within
them, what other indexed pages already hold. The search page (``search.html``) runs Pagefind's own interface; every page's search box
is a plain form that leads there, so without JavaScript it is a link to that page, which then
lists the site's indexes instead.

Pagefind cannot add to an index, so the index is cut into shards (nomic/website/shards.py), each a
whole Pagefind bundle in ``pagefind/<shard>/``; ``pagefind/shards.json`` names them, and the search
page merges them all (Pagefind's ``mergeIndex``), so a search finds every page, with the same
filters. A build marks each shard it wrote or removed a page of (``mark``: a file in
``pagefind/.stale/`` that lists the shard's pages, as the writer's manifest knows them), and
``index`` indexes again the marked shards alone, each into a folder of its own put in place once
whole; a mark is removed only once its shard is in place, so a run that fails or is killed leaves
its marks to the next. With no index yet (no ``shards.json``) ``index`` marks every shard the
site's manifest names: a fresh site is indexed whole.
"""
from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import orjson

from nomic.website.pages import Page
from nomic.website.writer import Manifest, manifest_pages

INDEX = "pagefind"  # the index's folder at the site's root (CONTRACT.md)
SHARDS = "shards.json"  # in INDEX: the names of the shards whose bundles are in place, for the search page
STALE = ".stale"  # in INDEX: the marks of the shards to index again
ENTRY = "pagefind-entry.json"  # in a bundle, with its *.pf_meta: what is its own; the rest is Pagefind's
IGNORED = ".crumbs, .vote-links"  # navigation and mail-to links: no text of the game's, on every indexed page


class SearchError(Exception):
    """Pagefind could not index the site."""


@dataclass(frozen=True)
class SearchIndex:
    """What one run indexed again: its shards, their pages, and their bundles' files and bytes (the
    bytes of each bundle's own files: not Pagefind's own, one copy for all, ``_share``)."""
    shards: int
    pages: int
    files: int
    bytes: int


def mark(site: Path, shards: Mapping[str, Sequence[str]]) -> None:
    """Mark ``shards`` of ``site``'s index (each with its pages now; none: the shard is gone) to be
    indexed again. Each mark is a file of its own, named by its shard and time, never rewritten; it
    replaces the shard's older marks (while no run indexes them, as when Pagefind keeps failing,
    they would pile up)."""
    if not shards:
        return
    folder = site / INDEX / STALE
    folder.mkdir(parents=True, exist_ok=True)
    older = _marks(site / INDEX)
    stamp = f"{time.time_ns():020d}"
    for shard, pages in shards.items():
        fd, tmp = tempfile.mkstemp(prefix=f".{shard}.{stamp}.", suffix=".json", dir=folder)
        with os.fdopen(fd, "wb") as f:
            f.write(orjson.dumps(list(pages)))
        os.replace(tmp, folder / Path(tmp).name[1:])
        for superseded in older.get(shard, ()):
            superseded.unlink(missing_ok=True)  # a run that read it first indexes the shard again next time


def due(site: Path) -> bool:
    """Whether ``index`` has work: there is no index yet, or shards are marked."""
    if not (site / INDEX / SHARDS).is_file():
        return True
    try:
        return any(not name.startswith(".") for name in os.listdir(site / INDEX / STALE))
    except FileNotFoundError:
        return False


def index(site: Path, timeout: float = 600) -> SearchIndex:
    """Index again each marked shard of ``site`` into ``site/pagefind/<shard>/``, replacing its bundle
    only once the new one is whole (with no index yet, every shard).

    Each shard is indexed into a new folder of its own, and bundles are put in place one at a time
    under a lock, so two runs at once (the daemon's and an operator's ``nomic build``) never write
    into or remove each other's; a shard that takes over ``timeout`` seconds is killed and fails,
    keeping its marks (the other shards are indexed all the same)."""
    root = site / INDEX
    root.mkdir(exist_ok=True)
    with _locked(root):
        if not (root / SHARDS).is_file():
            _start(site)
    pagefind = _executable()
    made: list[tuple[int, int, int]] = []
    failed: list[str] = []
    for shard, marks in _marks(root).items():
        try:
            pages = orjson.loads(marks[-1].read_bytes())
        except FileNotFoundError:  # a run beside this one indexed the shard and took its marks
            continue
        try:
            made.append(_index_shard(site, shard, pages, pagefind, timeout))
        except SearchError as exc:
            failed.append(str(exc))
            continue
        for done in marks:
            done.unlink(missing_ok=True)
    if failed:
        raise SearchError("; ".join(failed))
    return SearchIndex(len(made), sum(m[0] for m in made), sum(m[1] for m in made), sum(m[2] for m in made))


def _start(site: Path) -> None:
    """No index yet: remove what an index of an older form left, publish an empty list of shards,
    and mark every shard of the pages the site's manifest holds."""
    root = site / INDEX
    for entry in os.scandir(root):
        if entry.name.startswith("."):
            continue
        if entry.is_dir():
            shutil.rmtree(entry.path)
        else:
            os.unlink(entry.path)
    _publish(root)
    manifest = Manifest.of(manifest_pages(site))
    mark(site, {shard: manifest.members(shard) for shard in manifest.shards})


def _marks(root: Path) -> dict[str, list[Path]]:
    """The marks waiting, by shard, oldest first."""
    try:
        names = sorted(n for n in os.listdir(root / STALE) if not n.startswith("."))
    except FileNotFoundError:
        return {}
    marks: dict[str, list[Path]] = {}
    for name in names:
        marks.setdefault(name.split(".", 1)[0], []).append(root / STALE / name)
    return marks


def _executable() -> str:
    """Pagefind's binary, run directly (``python -m pagefind`` costs a Python start per shard)."""
    from pagefind.service import get_executable
    found = get_executable()
    if found is None:
        raise SearchError("the pagefind binary is not installed")
    return str(found)


def _index_shard(site: Path, shard: str, pages: list[str], pagefind: str, timeout: float) -> tuple[int, int, int]:
    """Index ``pages`` of ``site`` as ``shard`` and put its bundle in place (remove it, if none of the
    pages is there): (pages, files, bytes) of the new bundle."""
    root = site / INDEX
    new = Path(tempfile.mkdtemp(prefix=f".{shard}.new.", dir=root))
    view = Path(tempfile.mkdtemp(prefix=f".{shard}.view.", dir=root))
    try:
        linked = _link(site, pages, view)
        done = subprocess.run([pagefind, "--site", str(view), "--output-path", str(new),
                               "--keep-index-url", "--silent", "--root-selector", "main", "--exclude-selectors", IGNORED],
                              capture_output=True, text=True, timeout=timeout) if linked else None
    except subprocess.TimeoutExpired:
        shutil.rmtree(new, ignore_errors=True)
        raise SearchError(f"pagefind took over {timeout:g} s on shard {shard}; killed") from None
    finally:
        shutil.rmtree(view, ignore_errors=True)
    if done is not None and (done.returncode != 0 or not (new / "pagefind.js").is_file()):
        shutil.rmtree(new, ignore_errors=True)
        raise SearchError(f"pagefind failed on shard {shard}: {(done.stderr or done.stdout).strip()[-500:]}")
    with _locked(root):
        _share(root, new)
        sizes = [f.stat() for f in new.rglob("*") if f.is_file()]
        _swap(new if done is not None else None, root / shard)
        _publish(root)
    shutil.rmtree(new, ignore_errors=True)
    return linked, len(sizes), sum(f.st_size for f in sizes if f.st_nlink == 1)


def _link(site: Path, pages: list[str], view: Path) -> int:
    """Link ``pages`` of ``site`` into ``view`` at the same paths (Pagefind then reads only those);
    a page removed since it was marked is left out. The number linked."""
    linked = 0
    for path in pages:
        page, to = site / path, view / path
        to.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(page, to)
        except FileNotFoundError:
            continue
        except OSError:  # a file system without hard links
            shutil.copyfile(page, to)
        linked += 1
    return linked


@contextmanager
def _locked(root: Path) -> Iterator[None]:
    """The index's lock (the kernel's: it ends with the process), held while bundles are put in place."""
    with open(root / ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _swap(new: Path | None, current: Path) -> None:
    """Put ``new`` in place of ``current`` (none: remove ``current``), under the lock: the old bundle
    is moved aside first, since a folder cannot be renamed onto a folder that is not empty."""
    old = Path(tempfile.mkdtemp(prefix=f".{current.name}.old.", dir=current.parent))
    try:
        if current.exists():
            os.replace(current, old)
        if new is not None:
            os.replace(new, current)
    finally:
        shutil.rmtree(old, ignore_errors=True)


def _pagefinds(bundle: Path) -> list[Path]:
    """Pagefind's own files in ``bundle`` (its scripts, styles and WebAssembly): alike in every bundle
    of one version of Pagefind."""
    return [f for f in bundle.iterdir() if f.is_file() and f.name != ENTRY and f.suffix != ".pf_meta"]


def _share(root: Path, bundle: Path) -> None:
    """Make each of Pagefind's own files in the new ``bundle`` a hard link to the one beside
    ``shards.json`` (``_publish``), where that has the same bytes: a copy on disk, not one a shard."""
    for own in _pagefinds(bundle) if bundle.is_dir() else ():
        shared = root / own.name
        if shared.is_file() and shared.read_bytes() == own.read_bytes():
            _link_over(shared, own)


def _publish(root: Path) -> None:
    """Name the shards whose bundles are in place in ``shards.json``, and put Pagefind's own files
    beside it (the search page's script and style among them), from any bundle."""
    shards = sorted(e.name for e in os.scandir(root)
                    if not e.name.startswith(".") and (Path(e.path) / ENTRY).is_file())
    _write(root / SHARDS, orjson.dumps(shards))
    for own in _pagefinds(root / shards[0]) if shards else ():
        shared = root / own.name
        if not shared.is_file() or shared.read_bytes() != own.read_bytes():
            _link_over(own, shared)


def _link_over(source: Path, target: Path) -> None:
    """Make ``target`` a hard link to ``source`` in one step (a copy, on a file system without them)."""
    step = target.with_name(f".{target.name}.link")
    try:
        os.link(source, step)
    except OSError:
        shutil.copyfile(source, step)
    os.replace(step, target)


def _write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` in one step (a reader sees the old bytes or the new), if they differ."""
    try:
        if path.read_bytes() == data:
            return
    except FileNotFoundError:
        pass
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def page(_m: object) -> Iterator[Page]:
    """The search page (its form's target on every page)."""
    yield Page("search.html", "search.html")
