"""How many real decks each rule flags: every .ydk in ../shared/data/decks, checked under the
2026.05 TCG list (format "tcg" as of 2026-06-01) against the full YGOPRODeck card pool.

    python benchmarks/rule_stats.py [--format tcg] [--date 2026-06-01]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _realdata import DECKS, need_data, store_path, ydk_files  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--format", default="tcg")
    ap.add_argument("--date", default="2026-06-01")
    args = ap.parse_args()
    need_data()
    from deckcheck.cards.store import StorePool
    from deckcheck.checker import Checker
    from deckcheck.decks.files import read_decks
    from deckcheck.errors import DeckcheckError
    from deckcheck.rules.registry import RULES

    pool = StorePool(store_path())
    checker = Checker(args.format, args.date, pool=pool)
    flagged: Counter[str] = Counter()
    verdicts: Counter[str] = Counter()
    for path in ydk_files():
        try:
            decks = read_decks(str(path), pool)
        except DeckcheckError:
            verdicts["unreadable"] += 1
            continue
        for deck in decks:
            report = checker.check(deck)
            verdicts[report.verdict] += 1
            flagged.update({v.code for v in report.violations})
    total = sum(verdicts.values())
    print(f"{total} decks from {DECKS} under {checker.format.name}, list "
          f"{checker.banlist.name if checker.banlist else 'none'}, as of {checker.date}:")
    print("  " + ", ".join(f"{n} {v}" for v, n in sorted(verdicts.items())))
    print(f"{'code':<6} {'rule':<22} {'decks':>6} {'share':>7}")
    for code, mod in RULES.items():
        n = flagged.get(code, 0)
        print(f"{code:<6} {mod.NAME:<22} {n:>6} {n / max(total, 1):>7.1%}")


if __name__ == "__main__":
    main()
