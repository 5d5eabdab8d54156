"""The simulation package stays readable: one job per module, none above ~600 lines
(issue 23)."""

from __future__ import annotations

from pathlib import Path

import deckcheck.sim

SIM = Path(deckcheck.sim.__file__).parent


def test_no_sim_module_above_600_lines() -> None:
    sizes = {str(p.relative_to(SIM)): len(p.read_text(encoding="utf-8").splitlines())
             for p in SIM.rglob("*.py")}
    assert len(sizes) > 20
    assert {name: n for name, n in sizes.items() if n > 600} == {}
