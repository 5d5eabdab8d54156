"""What changed between two lists: the day a list is announced, players read this.

Each card has a status in each list: "Forbidden", "Limited", "Semi-Limited", "Unlimited",
"N points", or a limit group's name ("Limited 1", Speed Duel). A card in both lists with a
different status has moved ("Forbidden → Limited"); a card only in the new list is new; a
card only in the old list was removed (Unlimited again, or out of a whitelist's pool).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from deckcheck.formats.model import Banlist, BanlistEntry

STATUS_NAMES = {0: "Forbidden", 1: "Limited", 2: "Semi-Limited", 3: "Unlimited"}


def status(entry: BanlistEntry, bl: Banlist) -> str:
    for group in bl.groups:
        if entry.passcode in group.passcodes:
            return group.name
    if entry.points is not None:
        return f"{entry.points} point{'s' if entry.points != 1 else ''}"
    return STATUS_NAMES.get(entry.limit if entry.limit is not None else 3, "Unlimited")


def unlisted(bl: Banlist) -> str:
    """What a card not on the list is."""
    if bl.whitelist:
        return "Not legal"
    if bl.entries and all(e.points is not None for e in bl.entries):
        return "0 points"
    return "Unlimited"


class Change(BaseModel):
    model_config = ConfigDict(frozen=True)

    passcode: int
    name: str | None
    old: str  # status in the old list ("Unlimited"/"Not legal"/"0 points" when not listed)
    new: str


class BanlistDiff(BaseModel):
    """Moves, new entries and removed entries, each sorted by card name."""

    old: str
    new: str
    old_effective: str
    new_effective: str
    moved: list[Change]
    added: list[Change]
    removed: list[Change]

    @property
    def count(self) -> int:
        return len(self.moved) + len(self.added) + len(self.removed)


def _key(c: Change) -> tuple[str, int]:
    return ((c.name or "").casefold(), c.passcode)


def diff(old: Banlist, new: Banlist) -> BanlistDiff:
    before = {e.passcode: e for e in old.entries}
    after = {e.passcode: e for e in new.entries}
    moved, added, removed = [], [], []
    for code, e in after.items():
        if code in before:
            a, b = status(before[code], old), status(e, new)
            if a != b:
                moved.append(Change(passcode=code, name=e.name or before[code].name, old=a, new=b))
        else:
            added.append(Change(passcode=code, name=e.name, old=unlisted(old), new=status(e, new)))
    for code, e in before.items():
        if code not in after:
            removed.append(Change(passcode=code, name=e.name, old=status(e, old),
                                  new=unlisted(new)))
    return BanlistDiff(old=old.name, new=new.name, old_effective=old.effective.isoformat(),
                       new_effective=new.effective.isoformat(), moved=sorted(moved, key=_key),
                       added=sorted(added, key=_key), removed=sorted(removed, key=_key))


def _rank(s: str) -> tuple[int, int, str]:
    order = {v: k for k, v in STATUS_NAMES.items()} | {"Not legal": -1}
    if s in order:
        return (0, order[s], s)
    head = s.split()[0]
    return (1, int(head), s) if head.isdigit() else (2, 0, s)


def render(d: BanlistDiff) -> str:
    """The diff as text for people, grouped by move ("Forbidden → Limited: 2")."""
    out = [f"{d.old} ({d.old_effective}) → {d.new} ({d.new_effective})"]

    def block(title: str, changes: list[Change], label: str) -> None:
        groups: dict[str, list[Change]] = {}
        for c in changes:
            groups.setdefault(label.format(old=c.old, new=c.new), []).append(c)
        for head, items in sorted(groups.items(), key=lambda kv: (
                _rank(kv[1][0].old), _rank(kv[1][0].new))):
            out.append(f"{title}{head}: {len(items)}")
            out.extend(f"  {c.name or '?'} ({c.passcode})" for c in items)

    block("", d.moved, "{old} → {new}")
    block("New, ", d.added, "{new}")
    block("Removed, ", d.removed, "was {old}, now {new}")
    out.append(f"{d.count} change{'s' if d.count != 1 else ''}." if d.count else "No changes.")
    return "\n".join(out) + "\n"
