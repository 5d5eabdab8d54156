"""The JSON reporter: a stable, documented schema for programs.

Schema ``deckcheck.check/1`` (fields are only ever added, never renamed or removed; a
breaking change would be ``deckcheck.check/2``)::

    {
      "schema": "deckcheck.check/1",
      "reports": [                       // one per deck, in the order the decks were read
        {
          "deck": "deck.ydk",            // the deck's source (file name) or name
          "verdict": "legal" | "illegal" | "unchecked" | "unreadable",
          "format": "tcg",               // format id
          "banlist": "2026.05 TCG",      // the list checked against, or null
          "date": "2026-11-22",          // ISO date the deck was checked as of
          "sizes": {"main": 40, "extra": 15, "side": 15},
          "points": null,                // total points in points formats (Genesys), else null
          "violations": [
            {
              "code": "DC201",           // stable rule code, never reused
              "name": "too-many-copies", // kebab-case rule name
              "severity": "error" | "warning" | "info",
              "message": "The deck has 4 cards named Harpie Lady …",  // one sentence
              "card": "Harpie Lady",     // card name (as written when unknown), or null
              "passcode": 76812113,      // the passcode as written in the deck, or null
              "section": "main" | "extra" | "side" | null,
              "location": "deck.ydk:12", // where it was written ("f.xlsx:Sheet1!B7"), or null
              "where": {                 // the same, structured (null when unknown)
                "file": "deck.ydk", "line": 12, "sheet": null, "cell": null, "part": null},
              "count": 4,                // copies / cards counted, or null
              "limit": 3,                // the limit broken, or null
              "points": null,            // points counted (points rules), or null
              "cap": null,               // the points cap, or null
              "suggestions": []          // "did you mean" names for unknown cards
            }
          ],
          "notices": ["…"],              // things the reader should know (e.g. built-in card set)
          "error": null,                 // verdict "unreadable": the one-sentence reason
          "format_name": "TCG Advanced", // format name for people
          "cap": null,                   // the points cap in points formats, else null
          "open_points": ["…"],          // what the card data could not settle on the date
          "pool": null,                  // with cards outside the pool: which pool, what to do
          "hands": [["Card", "…"]]       // only with --hands N: sample opening hands
        }
      ],
      "skipped": [                       // inputs among many that are not deck files
        {"source": "README.md", "reason": "README.md is not a deck file (.md), so …"}
      ]
    }

An input that could not be read is a report with verdict "unreadable", its one-sentence
"error", no violations and empty sizes. The verdict is "illegal" iff a violation has
severity "error" (or "warning" with `--strict`); else "unchecked" ("could not be fully
checked") when "open_points" is not empty: problems that rest on the absence of a fact on a
date past the day the card data ends. Violations come in reading order: deck-wide
ones (sizes, points) first, then by line, sheet and cell.
"""

from __future__ import annotations

import json
from typing import Any

from deckcheck.reports.model import CheckResult, Outcome, Violation

SCHEMA = "deckcheck.check/1"


def _violation(v: Violation) -> dict[str, Any]:
    d = v.model_dump(mode="json", exclude={"location"})
    loc = v.location if v.location is not None and v.location.known else None
    out: dict[str, Any] = {}
    for key in ("code", "name", "severity", "message", "card", "passcode", "section"):
        out[key] = d.pop(key)
    out["location"] = str(loc) if loc is not None else None
    out.update(d)
    out["where"] = None if loc is None else {"file": loc.source, "line": loc.line,
                                             "sheet": loc.sheet, "cell": loc.cell,
                                             "part": loc.part}
    return out


def _unreadable(result: CheckResult, outcome: Outcome) -> dict[str, Any]:
    return {"deck": outcome.source, "verdict": "unreadable", "format": result.format,
            "banlist": result.banlist, "date": result.date, "sizes": {}, "points": None,
            "violations": [], "notices": [], "error": outcome.error,
            "format_name": result.format_name, "cap": None, "open_points": [], "pool": None}


def document(result: CheckResult) -> dict[str, Any]:
    """The JSON document as Python data."""
    out: list[dict[str, Any]] = []
    for outcome in result.outcomes:
        if outcome.error is not None:
            out.append(_unreadable(result, outcome))
            if result.hands:
                out[-1]["hands"] = []
        for c in outcome.decks:
            r = c.report
            d: dict[str, Any] = {
                "deck": r.deck, "verdict": r.verdict, "format": r.format,
                "banlist": r.banlist, "date": r.date, "sizes": dict(r.sizes),
                "points": r.points, "violations": [_violation(v) for v in r.violations],
                "notices": list(r.notices), "error": None, "format_name": r.format_name,
                "cap": r.cap, "open_points": list(r.open_points), "pool": r.pool}
            if result.hands:
                d["hands"] = [list(h) for h in c.hands]
            out.append(d)
    skipped = [{"source": o.source, "reason": o.skipped} for o in result.skipped]
    return {"schema": SCHEMA, "reports": out, "skipped": skipped}


class JsonReporter:
    name = "json"

    def __init__(self, indent: int | None = 2) -> None:
        self.indent = indent

    def render(self, result: CheckResult) -> str:
        return json.dumps(document(result), ensure_ascii=False, indent=self.indent) + "\n"
