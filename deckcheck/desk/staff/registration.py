"""One registration, for the staff: its history and the diff between submissions, the
actions (checked at the desk, note, rename, reopen), the deck check's comparison, and its
printable sheet."""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from deckcheck.desk import library
from deckcheck.desk.staff.access import (
    CONFLICT,
    JUDGE_COOKIE,
    judge_of,
    require_staff,
    version_of,
)
from deckcheck.desk.staff.listing import rows
from deckcheck.desk.store import Conflict
from deckcheck.desk.web import (
    Desk,
    Refused,
    check_csrf,
    clean_filename,
    clean_name,
    clean_player_id,
    desk_of,
    render,
)


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


async def player_page(request: Request) -> Response:
    desk = require_staff(request)
    ctx = await run_in_threadpool(_player_context, desk, request.path_params["reg_id"])
    return render(request, "staff_player.html", ctx)


async def update(request: Request) -> Response:
    desk = require_staff(request)
    reg_id = request.path_params["reg_id"]
    form = await request.form(max_files=0, max_fields=20, max_part_size=10_000)
    check_csrf(request, form)
    version = version_of(form)
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
