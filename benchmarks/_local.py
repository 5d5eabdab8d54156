"""Shared by the fault benchmarks (`bench_faults.py`, `bench_hostile.py`): what a child
process reports of its own peak memory, and a scripted HTTP server on 127.0.0.1.

(The tests keep their own server, `tests/sources/test_http.py`: tests do not import from
benchmarks/.)
"""

from __future__ import annotations

import http.server
import json
import threading
import time
from typing import Any

#: Python source defining `peak_mb()` for a child script run with `python -c`: the child's
#: own peak resident memory in MB (VmHWM from /proc: the whole process, interpreter and
#: imports included; `ru_maxrss` would keep the parent's across fork + exec), else
#: `resource.getrusage`.
PEAK_MB_SOURCE = r'''
def peak_mb():
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
'''


class Server:
    """A YGOPRODeck look-alike on 127.0.0.1: `/checkDBVer.php` answers a version, every other
    path answers by `mode`: "ok" (`body`), "bomb" (`bomb` as gzip), "bomb-version" (the bomb
    on the version check too), "stall" (headers, then `stall_s` of silence), "trickle" (one
    byte every 0.1 s of a 100,000-byte body), "truncated" (half of `body`, then close)."""

    def __init__(self, body: bytes, *, stall_s: float = 12.0) -> None:
        self.mode = "ok"
        self.body = body
        self.bomb = b""
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802
                mode = server.mode
                if self.path.startswith("/checkDBVer.php"):
                    if mode == "bomb-version":
                        return self._send(server.bomb, {"Content-Encoding": "gzip"})
                    return self._send(json.dumps([{"database_version": "9.9"}]).encode())
                try:
                    if mode in ("bomb", "bomb-version"):
                        self._send(server.bomb, {"Content-Encoding": "gzip"})
                    elif mode == "stall":
                        self._head(1000)
                        time.sleep(stall_s)
                    elif mode == "trickle":
                        self._head(100_000)
                        for _ in range(1000):
                            self.wfile.write(b" ")
                            self.wfile.flush()
                            time.sleep(0.1)
                    elif mode == "truncated":
                        self._head(len(server.body))
                        self.wfile.write(server.body[: len(server.body) // 2])
                        self.close_connection = True
                    else:
                        self._send(server.body)
                except OSError:
                    pass

            def _head(self, length: int) -> None:
                self.send_response(200)
                self.send_header("Content-Length", str(length))
                self.end_headers()
                self.wfile.flush()

            def _send(self, body: bytes, headers: dict[str, str] | None = None) -> None:
                self.send_response(200)
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
