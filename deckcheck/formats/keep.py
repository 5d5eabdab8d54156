"""Imports never make a list in force worse.

`deckcheck banlist update` (online or `--from`) writes lists into the user's directory, where
a file replaces the shipped one of the same format and day. An upstream list can be a worse
copy of what deckcheck ships: EDOPro's GOAT list names most cards by EDOPro's own ids (the
shipped one, by official passcodes), its Rush list read without Rush cards in the card pool
has no Legend groups. Before an imported list is written it is compared with the list in
force on its day (`worse`); when it would lose something, the list in force is kept and one
sentence says what was kept and why (`--force` takes the import anyway). A list of any day
is worse when

- it drops a limit group the list in force has (Rush Duel's Legends, Speed Duel's groups),
- or it is no whitelist where the list in force is one;

and a list that would replace the one of its own day (the shipped list of that day) also when

- its whitelist allows fewer cards,
- or it names fewer cards by official passcode (a printed passcode, at most 8 digits) than
  the list of the same day, and names ids of EDOPro's own that list does not.

A list much smaller than the one it replaces is no worse list but a cut-off one: the import
refuses it (`verify.check_whole`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from deckcheck.cards.model import UNOFFICIAL_IDS
from deckcheck.formats.model import Banlist

#: Ids above this are EDOPro's own (anime, pre-errata, GOAT entries), never printed passcodes.
OFFICIAL_MAX = UNOFFICIAL_IDS - 1


def _official(bl: Banlist) -> int:
    return sum(1 for e in bl.entries if e.passcode <= OFFICIAL_MAX)


def _legal(bl: Banlist) -> int:
    """The cards a whitelist allows (listed at 1 copy or more)."""
    return sum(1 for e in bl.entries if e.points is not None or (e.limit or 0) > 0)


def worse(new: Banlist, old: Banlist) -> str | None:
    """Why `new` would make checks worse than `old`, the list in force on its day (the end of
    a sentence: "the imported list …"), or None."""
    lost = sorted({g.name for g in old.groups} - {g.name for g in new.groups})
    if lost:
        names = [repr(n) for n in lost]
        shown = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
        return f"has no {shown} group"
    if old.whitelist and not new.whitelist:
        return "is no whitelist, and the list in force is one"
    if new.effective != old.effective:
        return None  # another day's list: `verify.check_whole` judges its size
    if old.whitelist and _legal(new) < _legal(old):
        return (f"allows {_legal(new):,} cards where the list in force (a whitelist) "
                f"allows {_legal(old):,}")
    known = {e.passcode for e in old.entries}
    own = sum(1 for e in new.entries if e.passcode > OFFICIAL_MAX and e.passcode not in known)
    if own and _official(new) < _official(old):
        return (f"names {_official(new):,} cards by official passcode where the list in "
                f"force names {_official(old):,} ({own:,} by EDOPro's own ids)")
    return None


@dataclass(frozen=True)
class Kept:
    """A list in force kept instead of an imported one, and why."""

    format: str
    effective: dt.date
    kept: Banlist
    imported: Banlist
    why: str
    shipped: bool

    def sentence(self) -> str:
        whose = "the shipped" if self.shipped else "your"
        return (f"{self.format} {self.effective.isoformat()}: kept {whose} list "
                f"{self.kept.name!r}, because the imported {self.imported.name!r} "
                f"({self.imported.source or 'no source named'}) {self.why}; pass --force "
                "to take it.")
