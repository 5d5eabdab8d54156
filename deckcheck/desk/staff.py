"""The staff pages (never open without the token or the password).

GET  /staff?token=…            log in with the secret link (the token leaves the address bar)
POST /staff/login              log in with the password (when one is set)
GET  /staff                    every registration: verdict, problems, duplicates; filters
GET  /staff/p/{id}             one player's history, the diff between submissions, actions
POST /staff/p/{id}/update      checked at the desk / note / reopen (optimistic versioning)
POST /staff/p/{id}/compare     the registered list against the deck shown at a deck check
GET  /staff/p/{id}/sheet.xlsx  the printable registration sheet
GET  /staff/sheets             every registration sheet, printable from the browser
GET  /staff/sheets.pdf         print all: one decklist page per player, in registration order
GET  /staff/export.{kind}      the event report: xlsx, csv, problems.csv, json
POST /staff/import             registrations from files (a folder's decks, a workbook, a CSV)
POST /staff/settings           the deadline (optimistic versioning)
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from deckcheck.desk import library
from deckcheck.desk.security import STAFF_COOKIE, same, staff_cookie_value
from deckcheck.desk.settings import parse_deadline
from deckcheck.desk.store import Conflict, Registration, Submission
from deckcheck.desk.web import (
    Desk,
    Refused,
    check_csrf,
    clean_filename,
    clean_name,
    clean_player_id,
    client_of,
    desk_of,
    render,
    route,
)

NOT_STAFF = ("This page is for the event staff; open the staff link printed when the desk "
             "started, or log in with the staff password.")
CONFLICT = ("Someone else changed this registration since you opened it; nothing was "
            "written. Their change is shown below: make yours again if it is still needed.")


def routes() -> list[Route]:
    return [
        route("/staff", overview), route("/staff/login", login, ["POST"]),
        route("/staff/logout", logout, ["POST"]),
        route("/staff/p/{reg_id:int}", player_page),
        route("/staff/p/{reg_id:int}/update", update, ["POST"]),
        route("/staff/p/{reg_id:int}/compare", compare, ["POST"]),
        route("/staff/p/{reg_id:int}/sheet.xlsx", sheet),
        route("/staff/sheets", sheets), route("/staff/sheets.pdf", sheets_pdf),
        route("/staff/export.{kind}", export),
        route("/staff/import", import_files, ["POST"]),
        route("/staff/settings", settings, ["POST"]),
    ]


def is_staff(request: Request) -> bool:
    desk = desk_of(request)
    return same(request.cookies.get(STAFF_COOKIE), staff_cookie_value(desk.secret, desk.token))


def require_staff(request: Request) -> Desk:
    if not is_staff(request):
        raise Refused(403, NOT_STAFF)
    return desk_of(request)


def _logged_in(request: Request, target: str = "/staff") -> Response:
    desk = desk_of(request)
    response = RedirectResponse(target, status_code=303)
    response.set_cookie(STAFF_COOKIE, staff_cookie_value(desk.secret, desk.token),
                        httponly=True, samesite="strict", secure=request.url.scheme == "https")
    return response


# --- the list ----------------------------------------------------------------------------------

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


def _login_wait(request: Request) -> str:
    """The key of this client's staff login tries; 429 while it must wait (its own limit,
    apart from submissions: a venue's players do not lock staff out, nor the reverse)."""
    desk = desk_of(request)
    key = "staff:" + client_of(request)
    wait = desk.logins.wait(key)
    if wait is not None:
        desk.refusals.add("login", client_of(request), wait)
        raise Refused(429, f"Too many wrong staff logins from this device; wait {wait:.0f} "
                           "seconds and try again.")
    return key


async def overview(request: Request) -> Response:
    desk = desk_of(request)
    token = request.query_params.get("token")
    if token is not None:
        key = _login_wait(request)
        if same(token, desk.token):
            desk.logins.succeeded(key)
            return _logged_in(request)
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
        "q": q, "verdict": verdict, "flag": flag, "message": _message(request),
        "deadline": desk.deadline, "closed": desk.closed(),
        "accept_illegal": desk.settings.accept_illegal,
        "settings_version": desk.settings_version})


async def login(request: Request) -> Response:
    desk = desk_of(request)
    form = await request.form(max_files=0, max_fields=5)
    check_csrf(request, form)
    key = _login_wait(request)
    password = form.get("password")
    if not desk.settings.password or not isinstance(password, str) or \
            not same(password, desk.settings.password):
        desk.logins.failed(key)
        raise Refused(403, "That is not the staff password; ask the organiser for it.")
    desk.logins.succeeded(key)
    return _logged_in(request)


async def logout(request: Request) -> Response:
    form = await request.form(max_files=0, max_fields=5)
    check_csrf(request, form)
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(STAFF_COOKIE)
    return response


# --- one player --------------------------------------------------------------------------------

def _player_context(desk: Desk, reg_id: int) -> dict[str, Any]:
    reg = desk.store.registration(reg_id)
    if reg is None:
        raise Refused(404, f"There is no registration #{reg_id}; go back to the list.")
    history = desk.store.history(reg_id)
    counting = desk.counting(history)
    events = desk.store.events(reg_id)
    checks: dict[int, list[Any]] = {}
    for e in events:
        if e.action == "checked" and e.submission_id is not None:
            checks.setdefault(e.submission_id, []).append(e)
    receipts = {s.id: s.receipt for s in history}
    entries = []
    previous = None
    for sub in history:
        deck = library.deck_from_json(sub.deck_json)
        report = library.report_from_json(sub.report_json)
        diff = None
        if previous is not None:
            diff = library.format_diff(desk.lib.diff(previous[1], deck, previous[0].receipt,
                                                     sub.receipt))
        entries.append({"sub": sub, "report": report, "diff": diff,
                        "checks": checks.get(sub.id, []),
                        "problems": [v for v in report.violations
                                     if v.severity in ("error", "warning")]})
        previous = (sub, deck)
    layout = None
    if counting is not None:
        layout = desk.lib.layout(library.deck_from_json(counting.deck_json))
    duplicate = next((r.duplicate for r in rows(desk, light=True) if r.reg.id == reg_id),
                     None)
    return {"reg": reg, "history": entries, "counting": counting, "layout": layout,
            "duplicate": duplicate, "checked": desk.checked(reg, counting), "events": events,
            "receipts": receipts, "accept_illegal": desk.settings.accept_illegal}


#: The cookie holding the name a judge typed, to sign what they do (not a login).
JUDGE_COOKIE = "desk_judge"


def judge_of(request: Request, form: Any) -> str:
    """Who did it: the name typed on the form (kept in a cookie for the next form)."""
    typed = form.get("judge")
    name = " ".join(typed.split())[:40] if isinstance(typed, str) else ""
    if not name:
        name = " ".join(request.cookies.get(JUDGE_COOKIE, "").split())[:40]
    try:
        return clean_name(name, "judge name") if name else "staff"
    except Refused:
        return "staff"


async def player_page(request: Request) -> Response:
    desk = require_staff(request)
    ctx = await run_in_threadpool(_player_context, desk, request.path_params["reg_id"])
    return render(request, "staff_player.html", ctx)


def _version(form: Any) -> int:
    """The version of the record the form was filled in from (optimistic versioning: a change
    made meanwhile by someone else is refused, not overwritten)."""
    try:
        return int(str(form.get("version", "")))
    except ValueError:
        raise Refused(400, "The form has no version; reload the page and try again.") from None


async def update(request: Request) -> Response:
    desk = require_staff(request)
    reg_id = request.path_params["reg_id"]
    form = await request.form(max_files=0, max_fields=20, max_part_size=10_000)
    check_csrf(request, form)
    version = _version(form)
    action = form.get("action")
    note = form.get("note")
    who = judge_of(request, form)
    changes: dict[str, Any] = {"who": who}
    if action == "checked":
        # the mark is for the list the judge saw: a list registered since is not checked
        registered = desk.counting(desk.store.history(reg_id))
        shown = str(form.get("submission", ""))
        if registered is None or shown != str(registered.id):
            ctx = await run_in_threadpool(_player_context, desk, reg_id)
            ctx["sentence"] = ("The registered list changed since you opened this page; "
                               "nothing was marked. Check the list shown below.")
            return render(request, "staff_player.html", ctx, 409)
        changes["checked"] = registered.id
    elif action == "unchecked":
        changes["unchecked"] = True
    elif action == "rename":
        player, player_id = form.get("player"), form.get("player_id")
        if not isinstance(player, str) or not isinstance(player_id, str):
            raise Refused(400, "Write the player's name and CARD GAME ID.")
        changes["player"] = clean_name(player, "player name")
        changes["player_id"] = clean_player_id(player_id) if player_id.strip() else ""
    elif action == "reopen":
        changes["reopened"] = True
    elif action == "close":
        changes["reopened"] = False
    elif action == "note" and isinstance(note, str):
        changes["note"] = " ".join(note.split())[:500]
    else:
        raise Refused(400, "That is not an action of this page; use one of its buttons.")
    try:
        await run_in_threadpool(lambda: desk.store.update_registration(
            reg_id, version, when=desk.settings.clock(), **changes))
    except Conflict:
        ctx = await run_in_threadpool(_player_context, desk, reg_id)
        ctx["sentence"] = CONFLICT
        return render(request, "staff_player.html", ctx, 409)
    except ValueError as exc:
        ctx = await run_in_threadpool(_player_context, desk, reg_id)
        ctx["sentence"] = (f"Not renamed: {exc}; open that registration to merge by hand or "
                           "type another name.")
        return render(request, "staff_player.html", ctx, 409)
    response = RedirectResponse(f"/staff/p/{reg_id}", status_code=303)
    if who != "staff":
        response.set_cookie(JUDGE_COOKIE, who, httponly=True, samesite="strict",
                            secure=request.url.scheme == "https")
    return response


async def compare(request: Request) -> Response:
    require_staff(request)
    async with request.form(max_files=1, max_fields=10, max_part_size=200_000) as form:
        return await _compare(request, form)


async def _compare(request: Request, form: Any) -> Response:
    desk = desk_of(request)
    reg_id = request.path_params["reg_id"]
    check_csrf(request, form)
    ctx = await run_in_threadpool(_player_context, desk, reg_id)
    counting = ctx["counting"]
    upload, paste = form.get("deck"), form.get("paste")
    try:
        if counting is None:
            raise Refused(409, "This player has no list that counts to compare with.")
        if isinstance(upload, UploadFile) and upload.filename:
            name = clean_filename(upload.filename)
            data = await upload.read(library.max_upload_bytes() + 1)
            shown = await run_in_threadpool(desk.lib.read_upload, data, name)
        elif isinstance(paste, str) and paste.strip():
            shown = await run_in_threadpool(desk.lib.read_pasted, paste, "deck shown")
        else:
            raise Refused(400, "Add the deck shown at the deck check: a file or a pasted list.")
    except library.LibraryError as exc:
        ctx["sentence"] = exc.message
        return render(request, "staff_player.html", ctx, 422)
    except Refused as exc:
        ctx["sentence"] = exc.sentence
        return render(request, "staff_player.html", ctx, exc.status)
    registered = library.deck_from_json(counting.deck_json)
    d = await run_in_threadpool(desk.lib.diff, registered, shown,
                                f"registered ({counting.receipt})", "shown at the deck check")
    text = library.format_diff(d)
    # kept with the registration: a deck check's finding is evidence for the judges
    await run_in_threadpool(lambda: desk.store.add_event(
        reg_id, who=judge_of(request, form), submission_id=counting.id,
        action="deck-check", detail=("identical" if d.identical else "differs") + "\n" + text,
        when=desk.settings.clock()))
    ctx = await run_in_threadpool(_player_context, desk, reg_id)
    ctx["compare"] = {"diff": text, "identical": d.identical}
    return render(request, "staff_player.html", ctx)


async def sheet(request: Request) -> Response:
    desk = require_staff(request)
    reg = desk.store.registration(request.path_params["reg_id"])
    counting = desk.counting(desk.store.history(reg.id)) if reg else None
    if reg is None or counting is None:
        raise Refused(404, "This registration has no list that counts yet.")
    data = await run_in_threadpool(
        library.registration_sheet, desk.lib, library.deck_from_json(counting.deck_json),
        player=reg.player, player_id=reg.player_id, event=desk.settings.event,
        date=desk.lib.date.isoformat())
    name = f"registration-{reg.id}.xlsx"
    return Response(data, media_type="application/vnd.openxmlformats-officedocument."
                    "spreadsheetml.sheet",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


async def sheets(request: Request) -> Response:
    desk = require_staff(request)

    def build() -> list[dict[str, Any]]:
        out = []
        for r in rows(desk):
            if r.sub is None:
                continue
            out.append({"row": r, "layout": desk.lib.layout(
                library.deck_from_json(r.sub.deck_json))})
        return out

    return render(request, "staff_sheets.html", {"sheets": await run_in_threadpool(build)})


async def sheets_pdf(request: Request) -> Response:
    """Print all: every registered list as a decklist page, in registration order."""
    desk = require_staff(request)

    def build() -> bytes:
        players = [(library.deck_from_json(r.sub.deck_json), r.reg.player, r.reg.player_id)
                   for r in rows(desk) if r.sub is not None]
        return library.decklists_pdf(desk.lib, players, event=desk.settings.event,
                                     date=desk.lib.date.isoformat())

    try:
        data = await run_in_threadpool(build)
    except library.LibraryError as exc:  # reportlab missing: how to install it
        raise Refused(503, exc.message) from None
    return Response(data, media_type="application/pdf",
                    headers={"Content-Disposition": 'attachment; filename="decklists.pdf"'})


def event_report(desk: Desk) -> Any:
    regs = []
    for r in rows(desk):
        if r.sub is None:
            continue
        regs.append((f"desk:{r.sub.receipt}", r.reg.player, r.reg.player_id,
                     library.deck_from_json(r.sub.deck_json)))
    return desk.lib.event_report(regs, desk.settings.event)


async def export(request: Request) -> Response:
    desk = require_staff(request)
    kind = request.path_params["kind"]
    if kind not in ("xlsx", "csv", "problems.csv", "json"):
        raise Refused(404, "The report is exported as xlsx, csv, problems.csv or json.")
    event = await run_in_threadpool(event_report, desk)
    data, media, name = await run_in_threadpool(library.write_event_report, event, kind)
    return Response(data, media_type=media,
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


async def import_files(request: Request) -> Response:
    require_staff(request)
    async with request.form(max_files=500, max_fields=10) as form:
        return await _import_files(request, form)


async def _import_files(request: Request, form: Any) -> Response:
    desk = desk_of(request)
    check_csrf(request, form)
    files: list[tuple[str, bytes]] = []
    total = 0
    for item in form.getlist("files"):
        if not isinstance(item, UploadFile) or not item.filename:
            continue
        # a folder picked in the browser sends "Jane Doe/deck.ydk": the folder names the
        # player when the file name does not (as `event check` reads a folder); the name is
        # only read, never used to open or write a file
        parts = [p for p in item.filename.replace("\\", "/").split("/") if p]
        if any(p.strip() in (".", "..") for p in parts) or item.filename.startswith("/"):
            raise Refused(400, f"{parts[-1] if parts else 'A file'}: the file name holds a "
                               "folder path or '..'; import files from a folder you pick.")
        name = "/".join(clean_filename(p, deck=False) for p in parts[-2:]) if parts else ""
        data = await item.read(library.max_upload_bytes() + 1)
        total += len(data)
        if len(data) > library.max_upload_bytes():
            raise Refused(413, f"{name} is larger than {library.max_upload_bytes() // 2**20} "
                               "MB; import it with `deckcheck event check` instead.")
        files.append((name, data))
    if not files:
        raise Refused(400, "Choose the registration files to import (deck files, a workbook "
                           "or a CSV of registrations).")

    def run() -> tuple[int, list[str]]:
        added, failed = 0, []
        for source, player, player_id, deck, error in desk.lib.import_files(files):
            if deck is None:
                failed.append(error or f"{source} could not be read.")
                continue
            try:
                name = clean_name(player or source, "player name")
            except Refused:
                name = library.formula_safe(player or source)[:80]
            desk.accept(player=name, player_id=player_id or "", deck=deck,
                        raw=library.deck_to_json(deck).encode(), origin="import", label=source,
                        nonce=None, client="import")
            added += 1
        return added, failed

    added, failed = await run_in_threadpool(run)
    msg = f"Imported {added} registration{'s' if added != 1 else ''}."
    if failed:
        msg += f" {len(failed)} could not be read: " + " ".join(failed[:5])
    return RedirectResponse(_with_message(desk, msg), status_code=303)


def _with_message(desk: Desk, text: str) -> str:
    """The list's address showing `text` once; signed, so a link made elsewhere cannot put
    its own words on the staff page."""
    from urllib.parse import urlencode

    text = text[:1500]
    return "/staff?" + urlencode({"m": text, "s": staff_cookie_value(desk.secret, "m:" + text)})


def _message(request: Request) -> str | None:
    text = request.query_params.get("m")
    if text is None:
        return None
    desk = desk_of(request)
    ok = same(request.query_params.get("s"), staff_cookie_value(desk.secret, "m:" + text))
    return text if ok else None


async def settings(request: Request) -> Response:
    desk = require_staff(request)
    form = await request.form(max_files=0, max_fields=10)
    check_csrf(request, form)
    version = _version(form)
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
    return RedirectResponse(_with_message(desk, "Deadline saved."), status_code=303)
