"""Tournament registration: check a whole event's decklists at once and report on them.

`check_event(sources, pool, format=…, date=…)` finds one decklist per player in folders,
deck files, workbooks and CSV exports (`sources`), checks every deck with the same format,
list and date, flags duplicate registrations, and returns an `EventReport` that the
reporters (`report_xlsx`, `report_csv`, `report_json`, `summary`) turn into files and text.
`sheets` plans and writes one printable registration sheet per player.
"""

from __future__ import annotations

from deckcheck.event.models import EventReport, PlayerRow, ProblemRow, Registration
from deckcheck.event.run import check_event

__all__ = ["EventReport", "PlayerRow", "ProblemRow", "Registration", "check_event"]
