"""The one HTTP helper every card-data source uses.

Timeouts always; bounded retries with exponential backoff on connection errors, 5xx and 429
(``Retry-After`` honoured, capped); at most ``rate`` requests per second; downloads written to
a temporary file next to the destination and renamed into place only when complete, so an
interrupted download never leaves a half-written file. Failures raise `FailedDownload`.
Nothing here prints: progress is reported through an optional callback.
"""

from __future__ import annotations

import email.utils
import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import requests

from deckcheck.atomic import replacing
from deckcheck.errors import FailedDownload

#: progress(bytes_done, bytes_total_or_None)
Progress = Callable[[int, "int | None"], None]

USER_AGENT = "deckcheck (+https://github.com/deckcheck/deckcheck)"
RETRY_STATUS = frozenset({429, 500, 502, 503, 504})


class _Retryable(Exception):
    def __init__(self, reason: str, wait: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.wait = wait


class Http:
    """A polite HTTP client: timeouts, bounded retries with backoff, a rate limit."""

    #: Defaults (class attributes so tests can make retries fast everywhere).
    TIMEOUT: float | tuple[float, float] = (10.0, 60.0)
    RETRIES = 4
    BACKOFF = 1.0
    MAX_WAIT = 60.0

    def __init__(self, *, timeout: float | tuple[float, float] | None = None,
                 retries: int | None = None, backoff: float | None = None,
                 max_wait: float | None = None, rate: float = 20.0,
                 sleep: Callable[[float], None] | None = None,
                 session: requests.Session | None = None) -> None:
        """`backoff` is the first retry's delay (doubling each time); a server's Retry-After
        is honoured up to `max_wait` seconds; `rate` caps requests per second."""
        self.timeout = self.TIMEOUT if timeout is None else timeout
        self.retries = self.RETRIES if retries is None else retries
        self.backoff = self.BACKOFF if backoff is None else backoff
        self.max_wait = self.MAX_WAIT if max_wait is None else max_wait
        self.min_interval = 1.0 / rate if rate > 0 else 0.0
        self.sleep = sleep or time.sleep
        self.session = session or requests.Session()
        self.session.headers.setdefault("User-Agent", USER_AGENT)
        self._last = 0.0
        self._lock = threading.Lock()

    # -- public API -------------------------------------------------------------------
    def get_json(self, url: str, params: dict[str, str] | None = None) -> Any:
        """GET `url` and decode its JSON body."""
        body = self._with_retries(url, lambda: self._fetch_bytes(url, params, None))
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

        def attempt() -> None:
            with replacing(dest, suffix=".part") as tmp, tmp.open("wb") as out:
                self._fetch_stream(url, params, out, progress)

        self._with_retries(url, attempt)
        return dest

    # -- internals --------------------------------------------------------------------
    def _throttle(self) -> None:
        with self._lock:
            wait = self._last + self.min_interval - time.monotonic()
            if wait > 0:
                self.sleep(wait)
            self._last = time.monotonic()

    def _with_retries(self, url: str, fn: Callable[[], Any]) -> Any:
        last = "no answer"
        for attempt in range(self.retries + 1):
            try:
                return fn()
            except _Retryable as exc:
                last = exc.reason
                if attempt == self.retries:
                    break
                wait = self.backoff * (2 ** attempt)
                if exc.wait is not None:
                    wait = max(wait, exc.wait)
                self.sleep(min(wait, self.max_wait))
        raise FailedDownload(
            f"Downloading {url} failed after {self.retries + 1} attempts ({last}); nothing was "
            "changed — check the connection and try again later.")

    def _get(self, url: str, params: dict[str, str] | None, stream: bool) -> requests.Response:
        self._throttle()
        try:
            resp = self.session.get(url, params=params, timeout=self.timeout, stream=stream)
        except (requests.ConnectionError, requests.Timeout) as exc:
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
                     progress: Progress | None) -> bytes:
        import io

        buf = io.BytesIO()
        self._fetch_stream(url, params, buf, progress)
        return buf.getvalue()

    def _fetch_stream(self, url: str, params: dict[str, str] | None, out: Any,
                      progress: Progress | None) -> None:
        resp = self._get(url, params, stream=True)
        with resp:
            total_header = resp.headers.get("Content-Length")
            total = int(total_header) if total_header and total_header.isdigit() else None
            # Count what came over the wire (before any content decoding): that is what
            # Content-Length measures, for progress and to detect a truncated body.
            done = 0
            wire = getattr(resp.raw, "tell", None)
            try:
                for chunk in resp.iter_content(chunk_size=1 << 16):
                    out.write(chunk)
                    done += len(chunk)
                    if progress is not None:
                        progress(wire() if callable(wire) else done, total)
            except (requests.ConnectionError, requests.Timeout,
                    requests.exceptions.ChunkedEncodingError,
                    requests.exceptions.ContentDecodingError) as exc:
                raise _Retryable(f"connection dropped: {type(exc).__name__}") from None
            raw_done = wire() if callable(wire) else done
            if total is not None and resp.headers.get("Content-Encoding") in (None, "identity") \
                    and raw_done < total:
                raise _Retryable(f"truncated body: {raw_done} of {total} bytes")


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
