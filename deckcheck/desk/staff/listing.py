"""The staff list: every registration with its verdict, problems and duplicate flags, filters,
sorting and pages (GET /staff, which also takes the secret link), and the deadline form
(POST /staff/settings)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from deckcheck.desk import library
from deckcheck.desk.security import same
from deckcheck.desk.settings import parse_deadline
from deckcheck.desk.staff.access import (
    NOT_STAFF,
    is_staff,
    logged_in,
    login_wait,
    message,
    require_staff,
    version_of,
    with_message,
)
from deckcheck.desk.store import Conflict, Registration, Submission
from deckcheck.desk.web import Desk, Refused, check_csrf, desk_of, render


@dataclass
class Row:
    reg: Registration
    sub: Submission | None  # the registered submission
    count: int  # submissions in all
    problems: list[str]
    duplicate: str | None
    sizes: str = ""
    #: The registered list is the one checked at the desk.
    checked: bool = False
    #: The last submission is not the registered one (an illegal or late list came after).
    unregistered: Submission | None = None
    notices: tuple[str, ...] = ()


def rows(desk: Desk, *, light: bool = False) -> list[Row]:
    """The list's rows; `light`: the submissions without their decks (`Row.sub.deck_json` is
    empty), for the list's page of thousands of registrations."""
    subs: dict[int, list[Submission]] = {}
    for s in desk.store.all_submissions(light=light):
        subs.setdefault(s.registration_id, []).append(s)
    out = []
    for reg in desk.store.registrations():
        history = subs.get(reg.id, [])
        sub = desk.counting(history)
        problems: list[str] = []
        sizes = ""
        notices: tuple[str, ...] = ()
        if sub is not None:
            summary = desk.summaries.get(sub.id)
            if summary is None:
                full = desk.store.submission_by_id(sub.id) if light else sub
                report = library.report_from_json(full.report_json if full else "{}")
                summary = desk.summaries[sub.id] = (
                    [f"{v.code} {v.message}" for v in report.violations
                     if v.severity in ("error", "warning")],
                    "/".join(str(report.sizes.get(s, 0)) for s in ("main", "extra", "side")),
                    tuple(report.notices))
            problems, sizes, notices = summary
        last = history[-1] if history else None
        out.append(Row(reg, sub, len(history), problems, None, sizes, desk.checked(reg, sub),
                       last if last is not None and last is not sub else None, notices))
    _flag_duplicates(out)
    return out


def grouped_notices(table: list[Row]) -> list[tuple[str, list[Row]]]:
    """Each notice of the registered lists once, with the registrations it concerns (a
    notice every list has, such as which card set is in use, concerns them all: [])."""
    by: dict[str, list[Row]] = {}
    for r in table:
        for n in r.notices:
            by.setdefault(n, []).append(r)
    with_lists = sum(1 for r in table if r.sub is not None)
    return [(n, [] if len(rs) == with_lists and with_lists > 1 else rs) for n, rs in by.items()]


#: Columns the list sorts by: name -> the key of a row.
SORTS: dict[str, Any] = {
    "id": lambda r: r.reg.id,
    "player": lambda r: (r.reg.player or "").casefold(),
    "player_id": lambda r: r.reg.player_id or "",
    "verdict": lambda r: r.sub.verdict if r.sub else "~",
    "sizes": lambda r: r.sizes,
    "problems": lambda r: len(r.problems),
    "sent": lambda r: r.count,
    "checked": lambda r: (r.checked, r.reg.checked_at or ""),
}


#: Registrations per page of the list.
PAGE_SIZE = 100


def _flag_duplicates(table: list[Row]) -> None:
    """The duplicate flags of `event check` (same player id, same name, same deck)."""
    notes = library.duplicates((r.reg.id, r.reg.player, r.reg.player_id,
                                r.sub.deck_hash if r.sub else None) for r in table)
    for r in table:
        r.duplicate = notes.get(r.reg.id)


def _matches(r: Row, q: str, verdict: str, flag: str) -> bool:
    if verdict and (r.sub.verdict if r.sub else "none") != verdict:
        return False
    if flag == "duplicate" and not r.duplicate:
        return False
    if flag == "unchecked" and r.checked:
        return False
    if flag == "checked" and not r.checked:
        return False
    if flag == "unregistered" and r.unregistered is None:
        return False
    if q:
        hay = " ".join(x or "" for x in (r.reg.player, r.reg.player_id,
                                         r.sub.receipt if r.sub else "",
                                         r.sub.deck_hash if r.sub else "",
                                         *r.problems)).casefold()
        return q.casefold() in hay
    return True


async def overview(request: Request) -> Response:
    desk = desk_of(request)
    token = request.query_params.get("token")
    if token is not None:
        key = login_wait(request)
        if same(token, desk.token):
            desk.logins.succeeded(key)
            return logged_in(request)
        desk.logins.failed(key)
        raise Refused(403, NOT_STAFF)
    if not is_staff(request):
        return render(request, "staff_login.html", {"sentence": NOT_STAFF,
                                                    "password": bool(desk.settings.password)},
                      403)
    params = request.query_params
    q = params.get("q", "").strip()[:100]
    verdict = params.get("verdict", "")
    flag = params.get("flag", "")
    sort = params.get("sort", "id")
    sort = sort if sort in SORTS else "id"
    descending = params.get("dir") == "desc"
    try:
        page = max(1, int(params.get("page", "1")))
    except ValueError:
        page = 1
    table = await run_in_threadpool(lambda: rows(desk, light=True))
    shown = sorted((r for r in table if _matches(r, q, verdict, flag)), key=SORTS[sort],
                   reverse=descending)
    pages = max(1, -(-len(shown) // PAGE_SIZE))
    page = min(page, pages)
    counts = {v: sum(1 for r in table if r.sub and r.sub.verdict == v)
              for v in ("legal", "illegal")}
    from urllib.parse import urlencode

    def link(**change: Any) -> str:
        keep = {"q": q, "verdict": verdict, "flag": flag, "sort": sort,
                "dir": "desc" if descending else "", "page": str(page)}
        keep.update({k: str(v) for k, v in change.items()})
        return "/staff?" + urlencode({k: v for k, v in keep.items() if v and not (
            (k == "page" and v == "1") or (k == "sort" and v == "id"))})

    return render(request, "staff_list.html", {
        "rows": shown[(page - 1) * PAGE_SIZE:page * PAGE_SIZE], "matching": len(shown),
        "total": len(table), "counts": counts, "page": page, "pages": pages, "link": link,
        "sort": sort, "descending": descending,
        "registered": sum(1 for r in table if r.sub is not None),
        "unregistered": sum(1 for r in table if r.unregistered is not None),
        "duplicates": sum(1 for r in table if r.duplicate),
        "notices": grouped_notices(table),
        "refusals": desk.refusals.recent(), "refused": dict(desk.refusals.total),
        "q": q, "verdict": verdict, "flag": flag, "message": message(request),
        "deadline": desk.deadline, "closed": desk.closed(),
        "accept_illegal": desk.settings.accept_illegal,
        "settings_version": desk.settings_version})


async def settings(request: Request) -> Response:
    desk = require_staff(request)
    form = await request.form(max_files=0, max_fields=10)
    check_csrf(request, form)
    version = version_of(form)
    text = form.get("deadline")
    value = ""
    if isinstance(text, str) and text.strip():
        try:
            value = parse_deadline(text).isoformat()
        except ValueError as exc:
            raise Refused(400, str(exc)) from None
    elif form.get("action") == "close-now":
        value = desk.settings.clock().astimezone(dt.UTC).isoformat()
    try:
        desk.store.set_meta_versioned({"deadline": value}, version)
    except Conflict:
        raise Refused(409, "Someone else changed the deadline since you opened the page; "
                           "nothing was written. Reload to see it.") from None
    return RedirectResponse(with_message(desk, "Deadline saved."), status_code=303)
