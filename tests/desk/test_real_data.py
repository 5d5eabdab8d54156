"""Real `ydke://` URLs (../shared/data/decks/ydke) pasted into the desk: each one decodes to
the counts recorded beside it, or, when empty or broken, gets one sentence and a 422."""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the desk extra is not installed (pip install "
                    "'deckcheck[desk]')")
from deskkit import csrf, submit  # noqa: E402


def test_real_ydke_urls_pasted(shared_data: Path, make_settings: Callable[..., Any]) -> None:
    from starlette.testclient import TestClient

    from deckcheck.desk.app import create_app
    from deckcheck.desk.store import Store

    with open(shared_data / "decks" / "ydke" / "ydke_urls.tsv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    assert len(rows) == 66
    settings = make_settings(submit_limit=0)
    accepted = 0
    with TestClient(create_app(settings), follow_redirects=False) as c:
        token = csrf(c)
        for n, row in enumerate(rows):
            counts = (int(row["main"]), int(row["extra"]), int(row["side"]))
            r = submit(c, player=f"Player {n}", player_id=f"{300000000 + n:010d}",
                       paste=row["url"], token=token)
            if counts == (0, 0, 0):
                assert r.status_code == 422, row["url"]
                assert "No card could be read" in r.text
                continue
            assert r.status_code == 303, (row["url"], r.text[-500:])
            accepted += 1
            sub = Store(settings.store).by_public(r.headers["location"].rsplit("/", 1)[1])
            assert sub is not None
            sizes = json.loads(sub.report_json)["sizes"]
            assert (sizes["main"], sizes["extra"], sizes["side"]) == counts
            # the same URL cut short: one sentence, a 422, nothing stored
            main = row["url"][len("ydke://"):].split("!")[0]
            if len(main) >= 8:
                cut = "ydke://" + main[:-3] + row["url"][len("ydke://") + len(main):]
                r = submit(c, player=f"Player {n}b", player_id=f"{400000000 + n:010d}",
                           paste=cut, token=token)
                assert r.status_code == 422
                said = re.search(r'role="alert">(.*?)</div>', r.text, re.S)
                assert said and "Main Deck part" in said.group(1)
    assert accepted >= 60
    assert Store(settings.store).count_submissions() == accepted
