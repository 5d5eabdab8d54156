"""The desk's guards: upload size, CSRF, the staff token, per-client rate limits, headers.

- Bodies larger than the readers' file limit are refused with 413 before they are read
  (by Content-Length), or as soon as the stream passes the limit (chunked bodies).
- Every form carries a CSRF token equal to a random cookie of the browser that got the form
  (double submit; the cookie is SameSite=Strict and HttpOnly); compared in constant time.
- The staff token and the staff cookie are compared with `hmac.compare_digest`.
- Submissions are limited per client address (a sliding window of one minute).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

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
