"""The desk's guards: upload size, CSRF, the staff token, per-client rate limits, headers.

- Bodies larger than the readers' file limit are refused with 413 before they are read
  (by Content-Length), or as soon as the stream passes the limit (chunked bodies).
- Every form carries a CSRF token equal to a random cookie of the browser that got the form
  (double submit; the cookie is SameSite=Strict and HttpOnly); compared in constant time.
- The staff token and the staff cookie are compared with `hmac.compare_digest`.
- Submissions are limited per client address and per player (sliding windows of one
  minute); every refusal is logged for staff (`RefusalLog`).
- Staff logins (password and token link) are limited on their own (`Backoff`): after a few
  failures from one address each further try waits twice as long as the last.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from deckcheck import clock

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSRF_COOKIE = "desk_csrf"
STAFF_COOKIE = "desk_staff"


def same(a: str | None, b: str | None) -> bool:
    """Constant-time equality of two secrets (False when either is missing)."""
    if not a or not b:
        return False
    return hmac.compare_digest(a.encode("utf-8", "replace"), b.encode("utf-8", "replace"))


def new_secret(nbytes: int = 24) -> str:
    return secrets.token_urlsafe(nbytes)


def staff_cookie_value(secret: str, token: str) -> str:
    """What the staff cookie holds: a MAC of the token, so the token itself is never stored
    in the browser and changing the token logs everyone out."""
    return hmac.new(secret.encode(), b"staff:" + token.encode(), hashlib.sha256).hexdigest()


class RateLimiter:
    """At most `limit` events per `window` seconds per key (0 = no limit)."""

    def __init__(self, limit: int, window: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._seen: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def allow(self, key: str) -> float | None:
        """None when allowed (and counted); else the seconds to wait."""
        if self.limit <= 0:
            return None
        now = self.clock()
        with self._lock:
            q = self._seen.setdefault(key, deque())
            while q and q[0] <= now - self.window:
                q.popleft()
            if len(q) >= self.limit:
                return max(1.0, q[0] + self.window - now)
            q.append(now)
            if len(self._seen) > 10_000:  # forget idle clients
                for k in [k for k, v in self._seen.items() if not v]:
                    del self._seen[k]
            return None


class Backoff:
    """Failed tries per key: the first `free` failures cost nothing; after that each try
    waits `base` seconds doubled per further failure (at most `cap`). A success forgets."""

    def __init__(self, free: int, base: float = 2.0, cap: float = 900.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.free = free
        self.base = base
        self.cap = cap
        self.clock = clock
        self._failed: dict[str, tuple[int, float]] = {}  # key -> (failures, last failure)
        self._lock = threading.Lock()

    def wait(self, key: str) -> float | None:
        """None when `key` may try now; else the seconds to wait."""
        with self._lock:
            failures, last = self._failed.get(key, (0, 0.0))
            if failures < self.free:
                return None
            pause = min(self.cap, self.base * 2 ** (failures - self.free))
            left = last + pause - self.clock()
            return max(1.0, left) if left > 0 else None

    def failed(self, key: str) -> None:
        with self._lock:
            failures, _ = self._failed.get(key, (0, 0.0))
            self._failed[key] = (failures + 1, self.clock())
            if len(self._failed) > 10_000:  # forget the oldest
                oldest = min(self._failed, key=lambda k: self._failed[k][1])
                del self._failed[oldest]

    def succeeded(self, key: str) -> None:
        with self._lock:
            self._failed.pop(key, None)


@dataclass(frozen=True)
class Refusal:
    at: dt.datetime
    what: str  # "address", "player" or "login"
    who: str  # the address, or the player's name and id
    wait: float


class RefusalLog:
    """The most recent refusals by the limits, for the staff page (kept in memory)."""

    def __init__(self, keep: int = 200) -> None:
        self._items: deque[Refusal] = deque(maxlen=keep)
        self.total: dict[str, int] = {}
        self._lock = threading.Lock()

    def add(self, what: str, who: str, wait: float) -> None:
        with self._lock:
            self._items.append(Refusal(clock.now_utc(), what, who, wait))
            self.total[what] = self.total.get(what, 0) + 1

    def recent(self, n: int = 20) -> list[Refusal]:
        with self._lock:
            return list(self._items)[-n:][::-1]


_TOO_LARGE = ("<!doctype html><meta charset=utf-8><title>Too large</title><p>{}</p>")


class BodyLimit:
    """ASGI middleware: refuse request bodies over `limit` bytes with 413 and one sentence."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    def sentence(self) -> str:
        return (f"The upload is larger than {self.limit // 2**20} MB, far more than any deck "
                "file; upload the deck file itself.")

    async def _refuse(self, send: Send) -> None:
        body = _TOO_LARGE.format(self.sentence()).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"text/html; charset=utf-8"),
                                (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = self.limit + 1
                if declared > self.limit:
                    await self._refuse(send)
                    return
        seen = 0
        started = False

        async def counting_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except _TooLarge:
            if not started:
                await self._refuse(send)


class _TooLarge(Exception):
    pass


class SecurityHeaders:
    """ASGI middleware: no framing, no referrer (the staff URL holds a token), no sniffing,
    and a content security policy that allows nothing from elsewhere and no scripts."""

    HEADERS = [
        (b"content-security-policy",
         b"default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; "
         b"form-action 'self'; frame-ancestors 'none'; base-uri 'none'"),
        (b"x-frame-options", b"DENY"),
        (b"referrer-policy", b"no-referrer"),
        (b"x-content-type-options", b"nosniff"),
        (b"cache-control", b"no-store"),
    ]

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                have = {k.lower() for k, _ in headers}
                headers += [(k, v) for k, v in self.HEADERS if k not in have]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)
