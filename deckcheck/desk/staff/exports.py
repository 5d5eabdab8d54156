"""What the staff take out of the desk and bring in: every registration sheet (a page to
print, or one PDF), the event report (xlsx, csv, problems.csv, json), and registrations
imported from files."""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from deckcheck.desk import library
from deckcheck.desk.staff.access import require_staff, with_message
from deckcheck.desk.staff.listing import rows
from deckcheck.desk.web import (
    Desk,
    Refused,
    check_csrf,
    clean_filename,
    clean_name,
    desk_of,
    render,
)


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
    return RedirectResponse(with_message(desk, msg), status_code=303)
