"""Dates shared by the rule tests."""

from __future__ import annotations

import datetime as dt

LIST_DAY = dt.date(2026, 5, 18)
