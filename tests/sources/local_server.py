"""A scripted YGOPRODeck look-alike on 127.0.0.1, for the HTTP tests (`test_http.py`) and the
fault benchmark (`benchmarks/bench_faults.py`, through `benchmarks/_local.py`): the one copy.

`/checkDBVer.php` answers `version`; every other path answers `body`, or as the next of
`modes` says (each used once), else as `mode` says (kept until changed):

- "ok": `body`; "500", "429" (Retry-After 3 s), "tomorrow" (429, Retry-After a day);
- "drop": the connection closed at once; "mute": the request read, no answer at all;
- "truncated": half of `body`, then close; "notjson": an HTML page;
- "bomb": `bomb` sent as gzip; "bomb-version" (as `mode`): the bomb on the version check too;
- "stall": headers, then silence; "burst": headers and 64 KB, then silence (both until
  `stall_s` or `close()`);
- "trickle": one byte every 0.2 s of a 1,000-byte body (`trickled` counts them).
"""

from __future__ import annotations

import http.server
import json
import threading
from typing import Any


class Server:
    """Started at once on a free port of 127.0.0.1 (`url`); `close()` ends it, and every
    answer still waiting."""

    def __init__(self, body: bytes, *, stall_s: float = 60.0) -> None:
        self.mode = "ok"
        self.modes: list[str] = []
        self.body = body
        self.bomb = b""
        self.version = "1.0"
        self.requests: list[str] = []
        self.trickled = 0  # bytes of trickled bodies written before the client hung up
        self.release = threading.Event()  # ends the silent answers (at `close`)
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802
                server.requests.append(self.path)
                try:
                    if self.path.startswith("/checkDBVer.php"):
                        self._version()
                    else:
                        self._answer(server.modes.pop(0) if server.modes else server.mode)
                except OSError:  # the client hung up
                    pass

            def _version(self) -> None:
                if server.mode == "bomb-version":
                    self._send(200, server.bomb, {"Content-Encoding": "gzip"})
                else:
                    self._send(200, json.dumps([{"database_version": server.version,
                                                 "last_update": "2026-06-14 22:16:00"}]).encode())

            def _answer(self, mode: str) -> None:
                if mode == "drop":
                    self.close_connection = True
                    self.connection.close()
                elif mode == "500":
                    self._send(500, b"oops")
                elif mode == "429":
                    self._send(429, b"slow down", {"Retry-After": "3"})
                elif mode == "tomorrow":
                    self._send(429, b"come back tomorrow", {"Retry-After": "86400"})
                elif mode == "truncated":
                    self._head(len(server.body))
                    self.wfile.write(server.body[: len(server.body) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                elif mode == "notjson":
                    self._send(200, b"<html>maintenance</html>")
                elif mode in ("bomb", "bomb-version"):
                    self._send(200, server.bomb, {"Content-Encoding": "gzip"})
                elif mode == "mute":
                    server.release.wait(stall_s)
                elif mode in ("stall", "burst"):
                    self._head(2**20)
                    self.wfile.write(b" " * (2**16 if mode == "burst" else 0))
                    self.wfile.flush()
                    server.release.wait(stall_s)
                elif mode == "trickle":
                    self._head(1000)
                    for _ in range(1000):
                        self.wfile.write(b" ")
                        self.wfile.flush()
                        server.trickled += 1
                        if server.release.wait(0.2):
                            break
                else:
                    self._send(200, server.body)

            def _head(self, length: int, code: int = 200,
                      headers: dict[str, str] | None = None) -> None:
                self.send_response(code)
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(length))
                self.end_headers()
                self.wfile.flush()

            def _send(self, code: int, body: bytes, headers: dict[str, str] | None = None) -> None:
                self._head(len(body), code, headers)
                self.wfile.write(body)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05},
                         daemon=True).start()

    def count(self, what: str) -> int:
        """How many requests asked for a path starting with `what`."""
        return sum(1 for r in self.requests if r.startswith(what))

    def close(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()
