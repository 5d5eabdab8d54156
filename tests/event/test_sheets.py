"""Registration sheets for many players: names, duplicates, failures, never replacing a sheet."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import openpyxl
import pytest

from deckcheck.errors import OutputError
from deckcheck.event.models import Registration
from deckcheck.event.sheets import plan_sheets, safe_name, write_sheets


def test_safe_name() -> None:
    assert safe_name("Jane Doe") == "Jane_Doe"
    assert safe_name("../../etc/passwd") == "etc_passwd"
    assert safe_name("  ..  ") == "player"


def test_plan_names_each_player_once_and_keeps_failures(kit: SimpleNamespace,
                                                        tmp_path: Path) -> None:
    deck = kit.make_deck(kit.LEGAL_MAIN, source="a.ydk")
    regs = [Registration(source="a.ydk", player="Alice", deck=deck),
            Registration(source="b.ydk", player="alice", deck=deck),
            Registration(source="dir/Carol 0301234567.ydk", deck=deck),
            Registration(source="x.ydk", player="Xavier", error="x.ydk holds no deck.")]
    plan = plan_sheets(regs, tmp_path / "out")
    assert [dest.name for _, dest in plan.sheets] == ["Alice.xlsx", "alice_2.xlsx",
                                                      "Carol_0301234567.xlsx"]
    assert [r.player for r in plan.failed] == ["Xavier"]


def test_write_refuses_to_replace_any_sheet_before_writing(kit: SimpleNamespace, pool: Any,
                                                           tmp_path: Path) -> None:
    deck = kit.make_deck(kit.LEGAL_MAIN, kit.LEGAL_EXTRA, source="a.ydk")
    regs = [Registration(source="a.ydk", player=p, player_id="0301234567", deck=deck)
            for p in ("Alice", "Bob")]
    plan = plan_sheets(regs, tmp_path / "out")
    written = write_sheets(plan, pool, event="Regional", date="2026-12-05")
    assert [p.name for p in written] == ["Alice.xlsx", "Bob.xlsx"]
    assert openpyxl.load_workbook(written[0]) is not None
    (tmp_path / "out" / "Bob.xlsx").write_bytes(b"signed")
    (tmp_path / "out" / "Alice.xlsx").unlink()
    with pytest.raises(OutputError, match=r"Bob\.xlsx already exists; pass --force"):
        write_sheets(plan, pool)
    assert not (tmp_path / "out" / "Alice.xlsx").exists()  # nothing written at all
    write_sheets(plan, pool, force=True)
    assert (tmp_path / "out" / "Bob.xlsx").read_bytes() != b"signed"
