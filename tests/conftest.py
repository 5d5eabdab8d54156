"""Shared test fixtures: no network, the real-data folder (skipped when absent)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = ROOT.parent / "shared" / "data"
#: Small hostile inputs from ../shared/hostile kept with the tests (their README says what
#: each broke); `hostile` reaches the larger ones there.
HOSTILE_FIXTURES = Path(__file__).resolve().parent / "fixtures" / "hostile"
SHARED_HOSTILE = ROOT.parent / "shared" / "hostile"


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests never reach beyond this machine: only loopback connections are allowed."""
    real_connect = socket.socket.connect

    def guarded(self: socket.socket, address: object) -> object:
        host = address[0] if isinstance(address, tuple) else str(address)
        if isinstance(host, str) and not (host.startswith("127.") or host in ("localhost", "::1")):
            raise RuntimeError(f"test tried to reach the network: {address!r}")
        return real_connect(self, address)  # type: ignore[arg-type]

    monkeypatch.setattr(socket.socket, "connect", guarded)


@pytest.fixture(autouse=True)
def _isolated_db(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads or writes the user's real card database."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("DECKCHECK_DB", str(home / "cards.sqlite"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.delenv("NO_COLOR", raising=False)


@pytest.fixture
def shared_data() -> Path:
    """`../shared/data`, or skip the test when this checkout has none beside it."""
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not present (real-data test)")
    return SHARED_DATA


@pytest.fixture
def hostile() -> Path:
    """`../shared/hostile` (the larger hostile inputs), or skip the test without it."""
    if not SHARED_HOSTILE.is_dir():
        pytest.skip("../shared/hostile is not present")
    return SHARED_HOSTILE


#: Fixtures that read ../shared/data: a test using any of them (directly or through another
#: fixture) is a real-data test.
REAL_DATA_FIXTURES = frozenset({"shared_data", "real_pool", "real_store", "yaml_yugi_pool"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every real-data test `realdata`, so `pytest -m "not realdata"` skips the slow ones
    locally (CI runs them all)."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        module = Path(str(item.fspath)).stem
        if names & REAL_DATA_FIXTURES or "real" in module.split("_"):
            item.add_marker(pytest.mark.realdata)
