"""`deckcheck banlist update` online: download lists, verify them, then import them.

The URLs below are downloaded through the shared HTTP helper into a temporary folder, each
verified (`verify`: a whole list, not an error page or a cut-off body) and then imported as
`update.import_lists` imports a folder: the lists to be written, once `update.store` has
left out the others, each not much smaller than the list it replaces. Offline (no host
answers within seconds) one sentence says so at once.
"""

from __future__ import annotations

import datetime as dt
import json
import tempfile
from collections.abc import Iterable, Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckcheck.errors import FailedDownload, FormatError
from deckcheck.formats import gather
from deckcheck.formats.gather.gathered import DATE_STEM
from deckcheck.formats.loader import user_dir
from deckcheck.formats.model import Banlist
from deckcheck.formats.update import ImportReport, store
from deckcheck.formats.verify import check_whole, what_it_is

if TYPE_CHECKING:
    from deckcheck.cards.pool import CardPool

EDOPRO_RAW = "https://raw.githubusercontent.com/ProjectIgnis/LFLists/master/"
#: What `deckcheck banlist update` downloads: EDOPro's LFLists repository (file name -> URL).
#: GOAT and Edison are frozen (their shipped lists are complete, with pre-errata ids mapped
#: to official passcodes, which a bare download cannot do); Master Duel takes Konami's only;
#: Rush Duel's Legend groups need Rush cards in the card pool (use --url for its list).
URLS: dict[str, str] = {name: EDOPRO_RAW + name for name in (
    "0TCG.lflist.conf", "OCG.lflist.conf", "Traditional.lflist.conf", "World.lflist.conf",
    "Speed.lflist.conf", "Genesys.lflist.conf")}
KONAMI_RAW = "https://raw.githubusercontent.com/DawnbrandBots/yaml-yugi-limit-regulation/HEAD/data/"
#: Konami's lists by Konami id as YAML Yugi publishes them, each with its official date: the
#: list in force and the next one announced (mapped to passcodes through the card database).
KONAMI_URLS: dict[str, str] = {
    f"konami-id/{folder}/{which}.vector.json": f"{KONAMI_RAW}{folder}/{which}.vector.json"
    for folder in ("tcg", "ocg", "master-duel") for which in ("current", "upcoming")}
#: YGOPRODeck's current lists (dated the day they are fetched), for `fetch(ygoprodeck=True)`.
YGOPRODECK_URLS: dict[str, str] = {
    f"ygoprodeck-{k}.cardinfo.json": f"https://db.ygoprodeck.com/api/v7/cardinfo.php?banlist={k}"
    for k in ("tcg", "ocg", "goat")}


def reachable(urls: Iterable[str], timeout: float = 3.0) -> list[str]:
    """The hosts ("host:port") of `urls` that answer a TCP connection within `timeout`
    seconds (through the proxy the environment names, when there is one). Offline, every
    host fails at once or at the timeout, never after minutes of retries."""
    import socket
    import threading

    targets: dict[str, tuple[str, int]] = {}
    for url in urls:
        host, port = _endpoint(url, proxied=True)
        if host:
            targets[f"{host}:{port}"] = (host, port)
    ok: list[str] = []

    def probe(key: str, host: str, port: int) -> None:
        try:
            with socket.create_connection((host, port), timeout=timeout):
                ok.append(key)
        except OSError:
            pass

    threads = [threading.Thread(target=probe, args=(k, *hp), daemon=True)
               for k, hp in targets.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout + 1.0)  # a name lookup that hangs is given up on, not waited for
    return sorted(ok)


def _reachable_only(urls: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """The URLs whose host answers, and a line for each left out; FailedDownload when no
    http(s) host answers and every URL is one."""
    probed = [u for u in urls.values() if _probed(u)]
    if not probed:
        return urls, []
    up = set(reachable(probed))
    if not up and len(probed) == len(urls):
        hosts = sorted({_host(u) for u in urls.values()})
        raise FailedDownload(f"Cannot reach {', '.join(hosts)} (no network?); no list "
                             "was changed — import from a folder with `deckcheck banlist "
                             "update --from DIR` when offline.")
    kept: dict[str, str] = {}
    failed: list[str] = []
    for fname, url in urls.items():
        if _probed(url) and _host(url, proxied=True) not in up:
            failed.append(f"{fname}: {_host(url)} did not answer")
        else:
            kept[fname] = url
    return kept, failed


def _download_all(client: Any, urls: Mapping[str, str], tmp: Path,
                  failed: list[str]) -> list[tuple[str, Path]]:
    """(URL, file) of every download that came; a line in `failed` for each that did not.
    FailedDownload when none came."""
    got: list[tuple[str, Path]] = []
    first: str | None = None
    for fname, url in urls.items():
        path = _download_path(tmp, fname)
        try:
            client.download(url, path)
        except FailedDownload as exc:
            failed.append(f"{fname}: {exc.message}")
            first = first or exc.message
            continue
        got.append((url, _dated(path)))
    if not got:
        # the download error already says what failed and that nothing was changed
        raise FailedDownload(f"No list could be downloaded: {first or '; '.join(failed)}")
    return got


def _read_one(url: str, path: Path, pool: CardPool | None, date: dt.date | None
              ) -> tuple[list[Banlist], dict[str, list[str]]]:
    """The lists of one download; FormatError (naming the URL) when it is no list."""
    why = what_it_is(path.read_bytes(), path.name)
    if why is None:
        try:
            found = gather.gather([path], pool=pool, date=date, formats=None)
        except FormatError as exc:
            why = str(exc).removeprefix(f"{path}: ").removesuffix(
                " Nothing was changed.").rstrip(".")
        else:
            if not found.lists and not found.skipped:
                why = "it holds no list"
    if why is not None:
        raise FormatError(f"{url}: {why}; no list was changed.")
    return found.ordered(), found.skipped


def fetch(urls: Mapping[str, str] | None = None, *, pool: CardPool | None = None,
          dest: str | Path | None = None, http: Any = None,
          date: dt.date | None = None, allow_smaller: bool = False,
          probe: bool = True, force: bool = False) -> ImportReport:
    """Download lists (file name -> URL, default `URLS`), verify them, and import them.

    Offline (no host answers within seconds) `FailedDownload` says so at once. A URL that
    fails is reported as skipped; when every one fails, `FailedDownload`. A download that is
    not a whole list (empty, an HTML page, bad JSON, a line cut off), or a list to be written
    that is much smaller than the list it replaces (`verify.check_whole`; `allow_smaller`
    accepts it), refuses the whole update: nothing is changed. A list that would not be
    written (another wins its day, or it would make the list in force worse, as by
    `import_lists`, unless `force`, which also allows a smaller list) is not held to that."""
    from deckcheck.sources.http import Http

    urls, failed = _reachable_only(dict(urls or URLS)) if probe else (dict(urls or URLS), [])
    client = http or Http()
    with tempfile.TemporaryDirectory(prefix="deckcheck-banlists-") as tmp:
        lists: list[Banlist] = []
        skipped: dict[str, list[str]] = {}
        url_of: dict[int, str] = {}  # id of each list read -> the URL it came from
        for url, path in _download_all(client, urls, Path(tmp), failed):
            mine, skips = _read_one(url, path, pool, date)
            url_of.update((id(bl), url) for bl in mine)
            lists += mine
            for k, v in skips.items():
                skipped.setdefault(k, []).extend(v)

        target = Path(dest) if dest is not None else user_dir()
        # only the lists to be written (not those `store` leaves out), each naming its URL
        whole = partial(check_whole, where_of=lambda bl: url_of[id(bl)],
                        allow_smaller=allow_smaller or force, what="the download")
        report = store(lists, skipped, target, force=force, sources=list(urls.values()),
                       verify=whole)
    report.skipped += failed
    return report


def _download_path(tmp: Path, fname: str) -> Path:
    """Where a download named `fname` goes: its folders kept (a Konami-id list's folder names
    its format), never outside `tmp`."""
    parts = [p for p in Path(fname).parts if p not in ("", ".", "..", "/") and ":" not in p
             and "\\" not in p]
    path = tmp.joinpath(*parts) if parts else tmp / "download"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def _dated(path: Path) -> Path:
    """A Konami-id list downloaded as `current.vector.json` renamed after the date it holds
    (`2026-05-18.vector.json`), as the importer finds them; anything else as it is."""
    if not path.name.endswith(".vector.json") or DATE_STEM.match(path.name):
        return path
    try:
        day = json.loads(path.read_text(encoding="utf-8")).get("date")
        named = path.with_name(f"{dt.date.fromisoformat(str(day)[:10])}.vector.json")
    except (ValueError, AttributeError, TypeError, UnicodeDecodeError):
        return path  # verification names what is wrong with it
    path.replace(named)
    return named


def _probed(url: str) -> bool:
    """Only http(s) hosts are probed; any other URL is left to the downloader to refuse."""
    return url.startswith(("http://", "https://"))


def _endpoint(url: str, proxied: bool) -> tuple[str | None, int]:
    """The host and port a connection to `url` goes to (through the environment's proxy when
    `proxied` and one applies)."""
    import urllib.request
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if proxied:
        via = urllib.request.getproxies().get(parts.scheme)
        if via and not urllib.request.proxy_bypass(parts.hostname or ""):
            parts = urlsplit(via)
    return parts.hostname, parts.port or (443 if parts.scheme == "https" else 80)


def _host(url: str, proxied: bool = False) -> str:
    host, port = _endpoint(url, proxied)
    return f"{host}:{port}" if proxied else str(host)

