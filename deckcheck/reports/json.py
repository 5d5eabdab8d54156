"""The JSON reporter: a stable, documented schema for programs.

Schema ``deckcheck.check/1`` (fields are only ever added, never renamed or removed; a
breaking change would be ``deckcheck.check/2``)::

    {
      "schema": "deckcheck.check/1",
      "reports": [                       // one per deck, in the order the decks were read
        {
          "deck": "deck.ydk",            // the deck's source (file name) or name
          "verdict": "legal" | "illegal" | "unreadable",
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
          "hands": [["Card", "…"]]       // only with --hands N: sample opening hands
        }
      ]
    }

The verdict is "illegal" iff a violation has severity "error" (or "warning" with
`--strict`). Violations come in rule-code order, then in deck order.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from deckcheck.reports import Hands
from deckcheck.rules.violation import Report

SCHEMA = "deckcheck.check/1"


def document(reports: Sequence[Report], hands: Hands | None = None) -> dict[str, Any]:
    """The JSON document as Python data."""
    out = []
    for i, r in enumerate(reports):
        d = r.model_dump(mode="json")
        if hands is not None and i < len(hands):
            d["hands"] = [list(h) for h in hands[i]]
        out.append(d)
    return {"schema": SCHEMA, "reports": out}


class JsonReporter:
    name = "json"

    def __init__(self, indent: int | None = 2) -> None:
        self.indent = indent

    def render(self, reports: Sequence[Report], hands: Hands | None = None) -> str:
        return json.dumps(document(reports, hands), ensure_ascii=False, indent=self.indent) + "\n"
