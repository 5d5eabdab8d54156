"""Cases run per reader in this session (filled by the fuzz tests, printed by conftest)."""

from __future__ import annotations

from collections import Counter

CASES: Counter[str] = Counter()
