"""The player's pages: the registration form, and the receipt with the verdict.

GET /            the form (name, CARD GAME ID, a deck file or a pasted list)
POST /submit     read, check and store the deck, then 303 to its receipt
GET /r/{code}    the receipt: verdict, every problem, the deck laid out, a form to resubmit
"""

from __future__ import annotations

import secrets
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from deckcheck.desk import library
from deckcheck.desk.app import (
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
from deckcheck.desk.store import normalize_receipt

#: The most text a pasted list may hold (a deck list is a few kB).
MAX_PASTE = 200_000


def routes() -> list[Route]:
    return [route("/", form_page), route("/submit", submit, ["POST"]),
            route("/r/{code}", receipt_page)]


def _form_context(request: Request, values: dict[str, str] | None = None) -> dict[str, Any]:
    desk = desk_of(request)
    return {"values": values or {}, "nonce": secrets.token_urlsafe(16),
            "closed": desk.closed(), "deadline": desk.deadline}


async def form_page(request: Request) -> Response:
    return render(request, "player.html", _form_context(request))


async def submit(request: Request) -> Response:
    async with request.form(max_files=1, max_fields=20, max_part_size=MAX_PASTE) as form:
        return await _submit(request, form)


async def _submit(request: Request, form: Any) -> Response:
    desk = desk_of(request)
    values = {k: v for k in ("player", "player_id", "receipt", "paste")
              if isinstance(v := form.get(k), str)}
    try:
        check_csrf(request, form)
        wait = desk.limiter.allow(client_of(request))
        if wait is not None:
            raise Refused(429, f"Too many submissions from this device in the last minute; "
                               f"wait {wait:.0f} seconds and send again.")
        player = clean_name(values.get("player", ""))
        player_id = clean_player_id(values.get("player_id", ""))
        upload = form.get("deck")
        paste = values.get("paste", "").strip()
        data, label, origin = b"", "", ""
        if isinstance(upload, UploadFile) and upload.filename:
            label = clean_filename(upload.filename)
            data = await upload.read(library.max_upload_bytes() + 1)
            if len(data) > library.max_upload_bytes():
                raise Refused(413, f"{label} is larger than "
                                   f"{library.max_upload_bytes() // 2**20} MB, far more than "
                                   "a deck file; upload the deck file itself.")
            if not data:
                raise Refused(400, f"{label} is empty; upload the file your deck editor "
                                   "saved, or paste the list.")
            origin = "upload"
        elif paste:
            data, label, origin = paste.encode("utf-8", "surrogatepass"), "pasted list", "paste"
        else:
            raise Refused(400, "Add your deck: upload its file or paste the list (ydke://, an "
                               "Omega code or one card per line).")
        nonce = form.get("nonce")
        nonce = nonce if isinstance(nonce, str) and 8 <= len(nonce) <= 64 else None
        sub = await run_in_threadpool(
            _accept, desk, player, player_id, values.get("receipt", ""), data, label,
            origin, paste if origin == "paste" else None, nonce, client_of(request))
    except Refused as exc:
        ctx = _form_context(request, values)
        ctx.update(status=exc.status, sentence=exc.sentence)
        response = render(request, "player.html", ctx, exc.status)
        if exc.status == 429:
            response.headers["Retry-After"] = "60"
        return response
    return RedirectResponse(f"/r/{sub.receipt}", status_code=303)


def _accept(desk: Any, player: str, player_id: str, receipt: str, data: bytes, label: str,
            origin: str, pasted: str | None, nonce: str | None, client: str) -> Any:
    if nonce is not None:
        done = desk.store.by_nonce(nonce)
        if done is not None:  # the same form sent twice: one submission
            return done
    existing = desk.store.find_registration(player, player_id)
    late = False
    if desk.closed():
        if existing is None or not existing.reopened:
            raise Refused(403, f"Submissions closed at {_when(desk.deadline)}; ask the staff "
                               "at the desk.")
        late = True
    if existing is not None:
        receipts = {s.receipt for s in desk.store.history(existing.id)}
        if normalize_receipt(receipt) not in receipts:
            raise Refused(409, "A list is already registered for this name and CARD GAME ID; "
                               "enter the receipt code of your last submission to replace it, "
                               "or ask the staff.")
    try:
        deck = (desk.lib.read_pasted(pasted) if pasted is not None
                else desk.lib.read_upload(data, label))
    except library.LibraryError as exc:
        raise Refused(422, exc.message) from None
    if not any(True for _ in deck.entries()) and not deck.problems:
        raise Refused(422, f"No card could be read from {label}; check that it is a deck "
                           "list.")
    return desk.accept(player=player, player_id=player_id, deck=deck, raw=data, origin=origin,
                       label=label, nonce=nonce, client=client, late=late)


def _when(value: Any) -> str:
    from deckcheck.desk.app import _time

    return _time(value)


async def receipt_page(request: Request) -> Response:
    desk = desk_of(request)
    sub = desk.store.submission(request.path_params["code"])
    if sub is None:
        raise Refused(404, "No submission has this receipt code; check the code on your "
                           "receipt.")
    reg = desk.store.registration(sub.registration_id)
    history = desk.store.history(sub.registration_id)
    counting = desk.counting(history)
    report = library.report_from_json(sub.report_json)
    deck = library.deck_from_json(sub.deck_json)
    layout = await run_in_threadpool(desk.lib.layout, deck)
    values = {"player": (reg.player or "") if reg else "",
              "player_id": (reg.player_id or "") if reg else "", "receipt": sub.receipt}
    if sub.origin == "paste":
        values["paste"] = desk.store.raw(sub.id).decode("utf-8", "replace")
    ctx = _form_context(request, values)
    ctx.update(receipt_fixed=True, sub=sub, reg=reg, report=report, deck=deck, layout=layout,
               counts=counting is not None and counting.id == sub.id,
               latest=history[-1].id == sub.id,
               problems=[v for v in report.violations if v.severity in ("error", "warning")],
               notes=[v for v in report.violations if v.severity == "info"],
               bad={v.passcode for v in report.violations
                    if v.severity in ("error", "warning") and v.passcode is not None})
    if reg is not None and reg.reopened:
        ctx["closed"] = False
    return render(request, "receipt.html", ctx)
