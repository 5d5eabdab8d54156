"""The text reporter: for people. One block per deck, one line per problem.

    deck.ydk: illegal — 1 error — main 40, extra 15, side 15 — TCG Advanced, list 2026.05 …
      deck.ydk:12  DC201 too-many-copies  Harpie Lady ×4 (limit 3): The deck has 4 cards …
    x.ydk: legal — main 40, extra 15, side 15 — TCG Advanced, list 2026.05 TCG, as of 2026-11-22

Notices shared by every deck are printed once at the end, with a count line when there is
more than one input. Inputs that could not be read are counted there; their sentences are the
front end's to show (the CLI writes them to stderr). Text from the deck file (names,
messages, file names) is passed through `printable`, so it cannot drive the terminal.
"""

from __future__ import annotations

from deckcheck.reports import Style, plain, printable
from deckcheck.reports.model import VERDICT_WORDS, CheckResult, Report, Violation


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


class TextReporter:
    name = "text"

    def __init__(self, style: Style | None = None) -> None:
        self.style = style or plain

    def render(self, result: CheckResult) -> str:
        reports = result.reports
        shared = set(reports[0].notices) if len(reports) > 1 else set()
        for r in reports[1:]:
            shared &= set(r.notices)
        lines: list[str] = []
        for checked in result.checked:
            lines.extend(self.report(checked.report, skip_notices=shared))
            for j, hand in enumerate(checked.hands, 1):
                lines.append(printable(f"  hand {j}: {', '.join(hand)}"))
        unreadable = len(result.unreadable)
        if len(reports) + unreadable > 1:
            if len(reports) > 1:
                for n in reports[0].notices:
                    if n in shared:
                        lines.append(self.style("note: ", "info") + printable(n))
            counts = {VERDICT_WORDS[v]: sum(r.verdict == v for r in reports)
                      for v in ("legal", "illegal", "unchecked")}
            counts["unreadable"] = unreadable
            summary = ", ".join(f"{n} {v}" for v, n in counts.items() if n)
            lines.append(f"{len(reports) + unreadable} decks: {summary}.")
        return "\n".join(lines) + "\n" if lines else ""

    def report(self, r: Report, skip_notices: set[str] | frozenset[str] = frozenset()
               ) -> list[str]:
        s = self.style
        errors = sum(v.severity == "error" for v in r.violations)
        warnings = sum(v.severity == "warning" for v in r.violations)
        infos = len(r.violations) - errors - warnings
        counts = ", ".join(_n(c, w) for c, w in
                           ((errors, "error"), (warnings, "warning"), (infos, "note")) if c)
        verdict = s(VERDICT_WORDS.get(r.verdict, r.verdict),
                    "legal" if r.verdict == "legal" else "illegal")
        if r.verdict == "legal":
            segs = [verdict + (f", {counts}" if counts else "")]
        else:
            segs = [verdict] + ([counts] if counts else [])
        sizes = ", ".join(f"{k} {v}" for k, v in r.sizes.items())
        if r.points is not None:
            sizes += f", points {r.points}" + (f"/{r.cap}" if r.cap is not None else "")
        segs.append(sizes)
        where = [r.format_name or r.format]
        where.append(f"list {r.banlist}" if r.banlist else "no list")
        if r.date:
            where.append(f"as of {r.date}")
        segs.append(", ".join(where))
        if r.pool:  # cards outside the pool: which pool, and what to do, on the first line
            segs.append(r.pool)
        lines = [f"{printable(r.deck)}: " + " — ".join(segs)]
        for v in r.violations:
            lines.append("  " + self.violation(v, r.deck))
        for p in r.open_points:
            lines.append("  " + s("open: ", "warning") + printable(p))
        for n in r.notices:
            if n not in skip_notices:
                lines.append("  " + s("note: ", "info") + printable(n))
        return lines

    def violation(self, v: Violation, deck: str) -> str:
        s = self.style
        loc = s(printable(v.place or deck), "location")
        code = s(v.code, v.severity)
        detail = _detail(v)
        text = printable(f"{detail}: {v.message}" if detail else v.message)
        return f"{loc}  {code} {v.name}  {text}"


def _detail(v: Violation) -> str:
    """"Harpie Lady ×4 (limit 3)" for problems with a card; deck-wide ones (sizes, points)
    say everything in their message."""
    if v.card is None:
        return ""
    out = v.card
    if v.count is not None:
        out += f" ×{v.count}"
    if v.limit is not None:
        out += f" (limit {v.limit})"
    return out
