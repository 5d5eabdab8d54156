"""The player's pages: the registration form, and the receipt with the verdict.

GET /            the form (name, CARD GAME ID, a deck file or a pasted list)
POST /submit     read, check and store the deck, then 303 to its receipt page
GET /r/{public}  the receipt page. The browser that sent the list sees it all (verdict, every
                 problem, the deck, the receipt code, a form to send a new list) for
                 `OWNER_MINUTES`; anyone else who has the address sees the verdict only
POST /r/{public} the whole page again for whoever types its receipt code and CARD GAME ID

Replacing a list needs its receipt code and the CARD GAME ID typed in the form: neither is
in any address, so a link, browser history or Back on a shared laptop cannot replace a
player's list. One-time form tokens (nonces) are bound to the browser session that got them.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from deckcheck.desk import library
from deckcheck.desk.security import same
from deckcheck.desk.store import Submission, normalize_receipt, registration_key
from deckcheck.desk.web import (
    Refused,
    check_csrf,
    clean_filename,
    clean_name,
    clean_player_id,
    client_of,
    desk_of,
    local_time,
    render,
    route,
    session_of,
)

#: The most text a pasted list may hold (a deck list is a few kB).
MAX_PASTE = 200_000
#: How long the browser that sent a list sees its whole receipt page without typing the code.
OWNER_MINUTES = 30


def routes() -> list[Route]:
    return [route("/", form_page), route("/submit", submit, ["POST"]),
            route("/r/{public}", receipt_page), route("/r/{public}", show_receipt, ["POST"])]


def bound_nonce(session: str | None, nonce: str | None) -> str | None:
    """A form's one-time token as stored: bound to the browser session that sent it, so the
    same token sent from another browser is another form (and never shows this one's page)."""
    if nonce is None or session is None:
        return None
    return hashlib.sha256(f"{session}:{nonce}".encode()).hexdigest()


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
        client = client_of(request)
        wait = desk.limiter.allow(client)
        if wait is not None:
            desk.refusals.add("address", client, wait)
            raise Refused(429, f"Too many submissions from this device in the last minute; "
                               f"wait {wait:.0f} seconds and send again.")
        player = clean_name(values.get("player", ""))
        player_id = clean_player_id(values.get("player_id", ""))
        wait = desk.player_limiter.allow(registration_key(player, player_id))
        if wait is not None:
            desk.refusals.add("player", f"{player} {player_id}", wait)
            raise Refused(429, f"Too many lists sent for {player} in the last minute; wait "
                               f"{wait:.0f} seconds and send again.")
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
        session = session_of(request)
        sub = await run_in_threadpool(
            _accept, desk, player, player_id, values.get("receipt", ""), data, label,
            origin, paste if origin == "paste" else None, bound_nonce(session, nonce), client,
            session)
    except Refused as exc:
        ctx = _form_context(request, values)
        ctx.update(status=exc.status, sentence=exc.sentence)
        response = render(request, "player.html", ctx, exc.status)
        if exc.status == 429:
            response.headers["Retry-After"] = "60"
        return response
    return RedirectResponse(f"/r/{sub.public}", status_code=303)


def _accept(desk: Any, player: str, player_id: str, receipt: str, data: bytes, label: str,
            origin: str, pasted: str | None, nonce: str | None, client: str,
            session: str | None) -> Any:
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
                       label=label, nonce=nonce, client=client, late=late, session=session)


def _when(value: Any) -> str:
    return local_time(value)


def _owner(request: Request, sub: Submission) -> bool:
    """Whether this browser sent `sub`, within the last `OWNER_MINUTES`."""
    session = session_of(request)
    if session is None or sub.session is None or not same(session, sub.session):
        return False
    age = desk_of(request).settings.clock() - dt.datetime.fromisoformat(sub.created_at)
    return age <= dt.timedelta(minutes=OWNER_MINUTES)


def _receipt_context(request: Request, sub: Submission) -> dict[str, Any]:
    desk = desk_of(request)
    reg = desk.store.registration(sub.registration_id)
    history = desk.store.history(sub.registration_id)
    registered = desk.counting(history)
    report = library.report_from_json(sub.report_json)
    ctx = _form_context(request, {"player": (reg.player or "") if reg else ""})
    ctx.update(sub=sub, reg=reg, report=report, registered=registered,
               counts=registered is not None and registered.id == sub.id,
               latest=history[-1].id == sub.id, accept_illegal=desk.settings.accept_illegal,
               problems=[v for v in report.violations if v.severity in ("error", "warning")])
    if reg is not None and reg.reopened:
        ctx["closed"] = False
    return ctx


async def _full_page(request: Request, sub: Submission, status: int = 200) -> Response:
    desk = desk_of(request)
    ctx = _receipt_context(request, sub)
    report = ctx["report"]
    deck = library.deck_from_json(sub.deck_json)
    if sub.origin == "paste":  # the pasted list is offered again, to fix
        ctx["values"]["paste"] = desk.store.raw(sub.id).decode("utf-8", "replace")
    ctx.update(full=True, deck=deck, layout=await run_in_threadpool(desk.lib.layout, deck),
               notes=[v for v in report.violations if v.severity == "info"],
               bad={v.passcode for v in report.violations
                    if v.severity in ("error", "warning") and v.passcode is not None})
    return render(request, "receipt.html", ctx, status)


def _find(request: Request) -> Submission:
    sub = desk_of(request).store.by_public(request.path_params["public"])
    if sub is None:
        raise Refused(404, "No submission has this receipt page; check the address, or send "
                           "your list again from the desk's first page.")
    return sub


async def receipt_page(request: Request) -> Response:
    sub = _find(request)
    if _owner(request, sub):
        return await _full_page(request, sub)
    # reached by its address alone: the verdict, and nothing about the player or the deck
    return render(request, "receipt.html", _receipt_context(request, sub) | {"full": False})


async def show_receipt(request: Request) -> Response:
    """The whole receipt page for whoever types its receipt code and CARD GAME ID."""
    desk = desk_of(request)
    sub = _find(request)
    form = await request.form(max_files=0, max_fields=10, max_part_size=1_000)
    check_csrf(request, form)
    client = client_of(request)
    wait = desk.logins.wait("receipt:" + client)
    if wait is not None:
        desk.refusals.add("receipt", client, wait)
        raise Refused(429, f"Too many wrong receipt codes from this device; wait {wait:.0f} "
                           "seconds and try again.")
    reg = desk.store.registration(sub.registration_id)
    code, typed_id = form.get("receipt"), form.get("player_id")
    if (reg is None or not isinstance(code, str) or not isinstance(typed_id, str)
            or normalize_receipt(code) != sub.receipt
            or registration_key(reg.player, typed_id) != registration_key(reg.player,
                                                                          reg.player_id)):
        desk.logins.failed("receipt:" + client)
        ctx = _receipt_context(request, sub) | {"full": False}
        ctx["sentence"] = ("That receipt code and CARD GAME ID are not this list's; check "
                           "both on your receipt.")
        return render(request, "receipt.html", ctx, 403)
    desk.logins.succeeded("receipt:" + client)
    return await _full_page(request, sub)
