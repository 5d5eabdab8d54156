"""The one HTTP helper every card-data source uses.

Timeouts always; bounded retries with exponential backoff on connection errors, 5xx and 429
(``Retry-After`` honoured up to ``max_wait``; a server asking for longer is not waited for: the
call fails at once saying when to try again); at most ``rate`` requests per second; downloads
written to a temporary file next to the destination and renamed into place only when complete,
so an interrupted download never leaves a half-written file. Failures raise `FailedDownload`.
Nothing here prints: progress is reported through an optional callback.

Every call has these bounds, defaults that apply to every caller:

- ``max_bytes``, the size of the body *after* content decoding, counted while streaming in
  small pieces (so a 2 MB gzip body cannot become 6 GB, nor fill memory on the way: a body
  is written to its file as it comes; `get_json`, which holds its body, takes at most
  ``JSON_MAX_BYTES``);
- ``timeout``: 5 s to connect, 5 s of silence (a stall: no byte of the answer);
- a minimum rate: a body that brings less than ``MIN_RATE`` (8 KB) a second over any
  ``RATE_WINDOW`` (5 s) is cut off (a server trickling one byte every few seconds never
  trips the per-read timeout); a watchdog thread closes the connection;
- a stalled or too slow attempt is tried again only when it had been sending (at least one
  window's worth of bytes at the minimum rate: a real download that broke off), and only once
  (``STALL_RETRIES``); a server that stalls or trickles from the start fails after one
  attempt, so within about 5 s of no progress;
- a failing server (connection errors, 5xx, a body cut short) is tried ``RETRIES`` (3) more
  times, 3.5 s of waits in all;
- ``deadline``, the seconds one call may take in all, retries and waits included
  (``DEADLINE``: 15 minutes).

So a slow but steady download always succeeds when it brings at least 8 KB/s over every 5 s
and ends within the 15 minutes: the 27 MB YGOPRODeck dump (3.2 MB if the server gzips it)
needs 4 KB/s on average compressed, 31 KB/s sent plain.
"""

from __future__ import annotations

import email.utils
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckcheck.atomic import replacing
from deckcheck.errors import FailedDownload

if TYPE_CHECKING:
    import requests

#: progress(bytes_done, bytes_total_or_None)
Progress = Callable[[int, "int | None"], None]

USER_AGENT = "deckcheck (+https://github.com/deckcheck/deckcheck)"
RETRY_STATUS = frozenset({429, 500, 502, 503, 504})


class _Retryable(Exception):
    """A failed attempt that may be tried again. `cut` is "stall" (no byte for the stall
    timeout) or "slow" (below the minimum rate over a window), else None; `progressed`, that
    the cut attempt had been sending (see `Http._progressed`)."""

    def __init__(self, reason: str, wait: float | None = None, cut: str | None = None,
                 progressed: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.wait = wait
        self.cut = cut
        self.progressed = progressed


class Http:
    """A polite HTTP client: timeouts, bounded retries with backoff, a rate limit."""

    #: Defaults (class attributes so tests can make retries fast everywhere).
    #: Seconds to connect, and of silence while reading (a stall).
    TIMEOUT: float | tuple[float, float] = (5.0, 5.0)
    #: Attempts after the first on a connection error, 5xx or 429, waiting `BACKOFF` seconds
    #: and doubling: 0.5 + 1 + 2 = 3.5 s in all unless a server asks for longer (`MAX_WAIT`).
    RETRIES = 3
    #: Cut-off attempts (a stall, or below the minimum rate) tried again, and only after one
    #: that had been sending: a download that broke off may go through on a new attempt; a
    #: server that stalls or trickles from the start would only do it again.
    STALL_RETRIES = 1
    BACKOFF = 0.5
    MAX_WAIT = 60.0
    #: The largest body accepted, after decompression (the card dump is ~30 MB in 2026).
    MAX_BYTES = 128 * 2**20
    #: The largest JSON answer `get_json` holds in memory (version checks are a few bytes).
    JSON_MAX_BYTES = 32 * 2**20
    #: Seconds one call may take in all (retries and waits included).
    DEADLINE = 15 * 60.0
    #: A body bringing fewer bytes a second than this over any `RATE_WINDOW` seconds is cut.
    MIN_RATE = 8 * 1024
    RATE_WINDOW = 5.0
    #: Bytes read from the socket at a time (each decoded piece is bounded by the decoder).
    CHUNK = 1 << 14

    def __init__(self, *, timeout: float | tuple[float, float] | None = None,
                 retries: int | None = None, backoff: float | None = None,
                 max_wait: float | None = None, rate: float = 20.0,
                 sleep: Callable[[float], None] | None = None,
                 session: requests.Session | None = None, max_bytes: int | None = None,
                 deadline: float | None = None, min_rate: float | None = None,
                 rate_window: float | None = None) -> None:
        """`backoff` is the first retry's delay (doubling each time); a server's Retry-After
        is honoured up to `max_wait` seconds; `rate` caps requests per second; `max_bytes`
        and `deadline` bound every call (see the module)."""
        self.timeout = self.TIMEOUT if timeout is None else timeout
        self.retries = self.RETRIES if retries is None else retries
        self.backoff = self.BACKOFF if backoff is None else backoff
        self.max_wait = self.MAX_WAIT if max_wait is None else max_wait
        self.max_bytes = self.MAX_BYTES if max_bytes is None else max_bytes
        self.deadline = self.DEADLINE if deadline is None else deadline
        self.min_rate = self.MIN_RATE if min_rate is None else min_rate
        self.rate_window = self.RATE_WINDOW if rate_window is None else rate_window
        self.min_interval = 1.0 / rate if rate > 0 else 0.0
        self.sleep = sleep or time.sleep
        if session is None:
            import requests  # on first use: importing it costs ~0.1-1 s (see `unreachable`)

            session = requests.Session()
        self.session = session
        self.session.headers.setdefault("User-Agent", USER_AGENT)
        self._last = 0.0
        self._lock = threading.Lock()

    # -- public API -------------------------------------------------------------------
    def get_json(self, url: str, params: dict[str, str] | None = None) -> Any:
        """GET `url` and decode its JSON body."""
        end = time.monotonic() + self.deadline
        body = self._with_retries(url, lambda: self._fetch_bytes(
            url, params, None, end, min(self.max_bytes, self.JSON_MAX_BYTES)), end)
        try:
            return json.loads(body)
        except ValueError:
            raise FailedDownload(
                f"{url} did not answer with JSON; nothing was changed — try again later.") from None

    def download(self, url: str, dest: str | Path, *, params: dict[str, str] | None = None,
                 progress: Progress | None = None) -> Path:
        """Download `url` to `dest` atomically (temporary file, then rename)."""
        dest = Path(dest)
        dest.parent.mkdir(parents=True, exist_ok=True)

        end = time.monotonic() + self.deadline

        def attempt() -> None:
            with replacing(dest, suffix=".part") as tmp, tmp.open("wb") as out:
                self._fetch_stream(url, params, out, progress, end)

        self._with_retries(url, attempt, end)
        return dest

    # -- internals --------------------------------------------------------------------
    def _throttle(self) -> None:
        with self._lock:
            wait = self._last + self.min_interval - time.monotonic()
            if wait > 0:
                self.sleep(wait)
            self._last = time.monotonic()

    def _with_retries(self, url: str, fn: Callable[[], Any], end: float) -> Any:
        last = "no answer"
        cuts = 0
        for attempt in range(self.retries + 1):
            try:
                return fn()
            except _Retryable as exc:
                last = exc.reason
                if exc.cut is not None:
                    cuts += 1
                    if not exc.progressed or cuts > self.STALL_RETRIES:
                        raise self._cut_off(url, exc, cuts) from None
                if attempt == self.retries:
                    break
                if exc.wait is not None and exc.wait > self.max_wait:
                    raise FailedDownload(
                        f"Downloading {url} failed ({exc.reason}): the server asks to wait "
                        f"{_duration(exc.wait)} before trying again, longer than deckcheck "
                        f"waits ({_duration(self.max_wait)}); nothing was changed — try again "
                        "later.") from None
                wait = self.backoff * (2 ** attempt)
                if exc.wait is not None:
                    wait = max(wait, exc.wait)
                wait = min(wait, self.max_wait)
                if time.monotonic() + wait >= end:
                    raise self._too_slow(url, last) from None
                self.sleep(wait)
        raise FailedDownload(
            f"Downloading {url} failed after {self.retries + 1} attempts ({last}); nothing was "
            "changed — check the connection and try again later.")

    def _cut_off(self, url: str, exc: _Retryable, cuts: int) -> FailedDownload:
        """The one sentence for a stalled or too slow server (after `cuts` attempts)."""
        again = " again on a new attempt" if cuts > 1 else ""
        if exc.cut == "slow":
            what = (f"stopped: the server sends too slowly{again} ({exc.reason}, below "
                    f"{_size(int(self.min_rate))}/s)")
        else:
            what = f"failed: the server stopped answering{again} ({exc.reason})"
        return FailedDownload(f"Downloading {url} {what}; nothing was changed — check the "
                              "connection and try again later.")

    def _too_slow(self, url: str, last: str | None = None) -> FailedDownload:
        why = f"; last: {last}" if last else ""
        return FailedDownload(
            f"Downloading {url} took longer than {_duration(self.deadline)} in all{why}; "
            "nothing was changed — check the connection and try again later.")

    def _get(self, url: str, params: dict[str, str] | None, stream: bool) -> requests.Response:
        import requests

        self._throttle()
        try:
            resp = self.session.get(url, params=params, timeout=self.timeout, stream=stream)
        except requests.ConnectTimeout:
            connect = self.timeout[0] if isinstance(self.timeout, tuple) else self.timeout
            raise _Retryable(f"no connection within {_duration(connect)}", cut="stall") from None
        except requests.Timeout:
            raise _Retryable(f"no answer within {_duration(_stall(self.timeout))}",
                             cut="stall") from None
        except requests.ConnectionError as exc:
            raise _Retryable(f"connection failed: {type(exc).__name__}") from None
        except requests.RequestException as exc:
            raise FailedDownload(
                f"Downloading {url} failed ({exc}); nothing was changed.") from None
        if resp.status_code in RETRY_STATUS:
            wait = (_retry_after(resp.headers.get("Retry-After"))
                    if resp.status_code in (429, 503) else None)
            resp.close()
            raise _Retryable(f"HTTP {resp.status_code}", wait)
        if resp.status_code >= 400:
            resp.close()
            raise FailedDownload(
                f"Downloading {url} failed with HTTP {resp.status_code}; nothing was changed — "
                "check the address.")
        return resp

    def _fetch_bytes(self, url: str, params: dict[str, str] | None,
                     progress: Progress | None, end: float, cap: int) -> bytes:
        import io

        buf = io.BytesIO()
        self._fetch_stream(url, params, buf, progress, end, cap)
        return buf.getvalue()

    def _fetch_stream(self, url: str, params: dict[str, str] | None, out: Any,
                      progress: Progress | None, end: float, cap: int | None = None) -> None:
        import requests

        if time.monotonic() >= end:
            raise self._too_slow(url)
        resp = self._get(url, params, stream=True)
        watch = _Watchdog(resp, end, self.min_rate, self.rate_window)
        try:
            with resp:
                self._stream_body(url, resp, out, progress, watch.expired,
                                  self.max_bytes if cap is None else cap)
        except _Retryable as exc:
            if not watch.expired.is_set():
                exc.progressed = self._progressed(resp)
                raise
        except (OSError, requests.RequestException):
            if not watch.expired.is_set():
                raise
        finally:
            watch.stop()
        if watch.expired.is_set():
            if watch.slow is None:
                raise self._too_slow(url)
            got, seconds = watch.slow
            window = _duration(self.rate_window)
            reason = (f"nothing for {window}" if got == 0 else
                      f"{got / seconds:.0f} bytes/s over {window}")
            raise _Retryable(reason, cut="stall" if got == 0 else "slow",
                             progressed=self._progressed(resp))

    def _progressed(self, resp: requests.Response) -> bool:
        """Whether an attempt had been sending: at least one rate window's worth of bytes at
        the minimum rate came over the wire (a trickle or a stall from the start never has)."""
        return _wire(resp) >= self.min_rate * self.rate_window

    def _stream_body(self, url: str, resp: requests.Response, out: Any,
                     progress: Progress | None, expired: threading.Event, cap: int) -> None:

        total_header = resp.headers.get("Content-Length")
        total = int(total_header) if total_header and total_header.isdigit() else None
        if total is not None and total > cap:
            raise FailedDownload(self._too_big(url, total, cap=cap))
        # Count what came over the wire (before any content decoding): that is what
        # Content-Length measures, for progress and to detect a truncated body, and what the
        # watchdog's rate counts; and what came out of the decoder, which `max_bytes` bounds.
        done = 0
        for chunk in self._pieces(resp):
            done += len(chunk)
            if done > cap:
                raise FailedDownload(self._too_big(url, done, decoded=True, cap=cap))
            out.write(chunk)
            if progress is not None:
                progress(_wire(resp) or done, total)
            if expired.is_set():
                return
        if expired.is_set():
            return
        raw_done = _wire(resp) or done
        if total is not None and resp.headers.get("Content-Encoding") in (None, "identity") \
                and raw_done < total:
            raise _Retryable(f"truncated body: {raw_done} of {total} bytes")

    def _pieces(self, resp: requests.Response) -> Iterator[bytes]:
        """The decoded body, each piece (at most `CHUNK` bytes) as soon as one read from the
        socket brings it: so what came over the wire is counted as it comes (a read of a whole
        `CHUNK` would hide a trickle, and a steady download slower than a chunk per window,
        from the watchdog)."""
        from urllib3.exceptions import DecodeError, ProtocolError, ReadTimeoutError

        while True:
            try:
                piece: bytes = resp.raw.read1(self.CHUNK, decode_content=True)
            except ReadTimeoutError:
                raise _Retryable(f"nothing for {_duration(_stall(self.timeout))}",
                                 cut="stall") from None
            except (ProtocolError, DecodeError, OSError) as exc:
                total = resp.headers.get("Content-Length", "")
                if total.isdigit() and _wire(resp) < int(total):
                    raise _Retryable(f"the body ended after {_wire(resp)} of {total} "
                                     "bytes") from None
                raise _Retryable(f"connection dropped: {type(exc).__name__}") from None
            if not piece:
                return
            yield piece

    def _too_big(self, url: str, size: int, *, decoded: bool = False, cap: int) -> str:
        what = "inflates to more than" if decoded else "is"
        return (f"Downloading {url} stopped: the body {what} {_size(size)}, over the "
                f"{_size(cap)} limit; nothing was changed — check the address.")


class _Watchdog:
    """Cuts a response's connection from a thread at the deadline, or when its body comes in
    slower than `min_rate` bytes a second over a `window` (the per-read timeout never fires on
    a trickle). `expired` is set when it did; `slow` is then (bytes, seconds) of the window
    that was too slow, None at the deadline."""

    def __init__(self, resp: requests.Response, end: float, min_rate: float,
                 window: float) -> None:
        self.resp, self.end, self.min_rate, self.window = resp, end, min_rate, window
        self.expired = threading.Event()
        self.slow: tuple[int, float] | None = None
        self._done = threading.Event()
        threading.Thread(target=self._watch, daemon=True).start()

    def stop(self) -> None:
        self._done.set()

    def _watch(self) -> None:
        mark, at = 0, time.monotonic()
        while not self._done.wait(min(0.5, self.window)):
            now = time.monotonic()
            if now >= self.end:
                break
            if now - at >= self.window:
                got = _wire(self.resp)
                if got - mark < self.min_rate * (now - at):
                    self.slow = (got - mark, now - at)
                    break
                mark, at = got, now
        else:
            return
        self.expired.set()
        _shutdown(self.resp)


def _wire(resp: requests.Response) -> int:
    """Bytes of a response's body read from the socket so far (before content decoding)."""
    tell = getattr(resp.raw, "tell", None)
    return int(tell()) if callable(tell) else 0


def _stall(timeout: float | tuple[float, float]) -> float:
    """The read (stall) part of a requests timeout."""
    return timeout[1] if isinstance(timeout, tuple) else timeout


#: Seconds `unreachable` waits for a connection: offline, a name does not resolve or the
#: connection is refused at once; a host that drops packets is given this long.
PROBE_SECONDS = 1.0


def unreachable(url: str, timeout: float = PROBE_SECONDS) -> str | None:
    """Why `url`'s host cannot be reached at all (no network, no such name, nothing
    listening), found with one connection attempt of at most `timeout` seconds; None when it
    answers. Lets a caller say "offline" at once instead of retrying for a quarter minute."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    host = parts.hostname
    if not host:
        return None
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return None
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except socket.gaierror:
        return f"the name {host} does not resolve"
    except TimeoutError:
        return f"{host} did not answer within {timeout:g} s"
    except OSError as exc:
        return f"{host}:{port} refused the connection" if isinstance(
            exc, ConnectionRefusedError) else f"{host} cannot be reached ({exc.strerror or exc})"
    return None


def _shutdown(resp: requests.Response) -> None:
    """Cut a response's connection from another thread (a blocked read then returns)."""
    raw = resp.raw
    conn = getattr(raw, "_connection", None) or getattr(raw, "connection", None)
    sock = getattr(conn, "sock", None)
    if sock is None:  # the socket under http.client's file object
        fp = getattr(getattr(raw, "_fp", None), "fp", None)
        sock = getattr(getattr(fp, "raw", None), "_sock", None)
    if isinstance(sock, socket.socket):
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def _size(n: int) -> str:
    """"512 MB", "8 KB", "100 bytes"."""
    if n >= 2**20:
        return f"{n / 2**20:.0f} MB"
    return f"{n / 2**10:.0f} KB" if n >= 2**10 else f"{n} bytes"


def _duration(seconds: float) -> str:
    """"45 s", "4 min", "24 h"."""
    if seconds < 120:
        return f"{seconds:g} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.0f} h"


def _retry_after(value: str | None) -> float | None:
    """Seconds to wait from a Retry-After header (seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())
