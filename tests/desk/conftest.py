"""Fixtures of the desk tests (helpers in `deskkit`; this folder is put on sys.path)."""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from deskkit import EVENT_DAY, TEST_TCG, Clock, pool  # noqa: E402

#: Why the desk tests skip: the web stack is the optional `desk` extra.
NO_EXTRA = "the desk extra is not installed (pip install 'deckcheck[desk]')"


def need_desk_extra() -> None:
    for module in ("starlette", "jinja2", "python_multipart", "uvicorn"):
        pytest.importorskip(module, reason=NO_EXTRA)


@pytest.fixture
def clock() -> Clock:
    return Clock(dt.datetime(2026, 12, 5, 8, 0, tzinfo=dt.UTC))


@pytest.fixture
def make_settings(tmp_path: Path, clock: Clock) -> Callable[..., Any]:
    need_desk_extra()
    from deckcheck.desk.settings import DeskSettings

    def make(**kw: Any) -> DeskSettings:
        opts: dict[str, Any] = dict(event="Regional Berlin", store=tmp_path / "event.db",
                                    format=TEST_TCG, date=EVENT_DAY, pool=pool(),
                                    token="staff-secret-token", clock=clock)
        opts.update(kw)
        return DeskSettings(**opts)

    return make


@pytest.fixture
def client(make_settings: Callable[..., Any]) -> Iterator[Any]:
    from starlette.testclient import TestClient

    from deckcheck.desk.app import create_app

    with TestClient(create_app(make_settings()), follow_redirects=False) as c:
        yield c


