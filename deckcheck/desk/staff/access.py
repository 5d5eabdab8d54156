"""Staff access: the login (secret link or password), the staff cookie, the judge's name that
signs an action, and the signed one-time messages of the list page."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from deckcheck.desk.security import STAFF_COOKIE, same, staff_cookie_value
from deckcheck.desk.web import Desk, Refused, check_csrf, clean_name, client_of, desk_of

NOT_STAFF = ("This page is for the event staff; open the staff link printed when the desk "
             "started, or log in with the staff password.")


CONFLICT = ("Someone else changed this registration since you opened it; nothing was "
            "written. Their change is shown below: make yours again if it is still needed.")


def is_staff(request: Request) -> bool:
    desk = desk_of(request)
    return same(request.cookies.get(STAFF_COOKIE), staff_cookie_value(desk.secret, desk.token))


def require_staff(request: Request) -> Desk:
    if not is_staff(request):
        raise Refused(403, NOT_STAFF)
    return desk_of(request)


def logged_in(request: Request, target: str = "/staff") -> Response:
    desk = desk_of(request)
    response = RedirectResponse(target, status_code=303)
    response.set_cookie(STAFF_COOKIE, staff_cookie_value(desk.secret, desk.token),
                        httponly=True, samesite="strict", secure=request.url.scheme == "https")
    return response


def login_wait(request: Request) -> str:
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


async def login(request: Request) -> Response:
    desk = desk_of(request)
    form = await request.form(max_files=0, max_fields=5)
    check_csrf(request, form)
    key = login_wait(request)
    password = form.get("password")
    if not desk.settings.password or not isinstance(password, str) or \
            not same(password, desk.settings.password):
        desk.logins.failed(key)
        raise Refused(403, "That is not the staff password; ask the organiser for it.")
    desk.logins.succeeded(key)
    return logged_in(request)


async def logout(request: Request) -> Response:
    form = await request.form(max_files=0, max_fields=5)
    check_csrf(request, form)
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(STAFF_COOKIE)
    return response


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


def version_of(form: Any) -> int:
    """The version of the record the form was filled in from (optimistic versioning: a change
    made meanwhile by someone else is refused, not overwritten)."""
    try:
        return int(str(form.get("version", "")))
    except ValueError:
        raise Refused(400, "The form has no version; reload the page and try again.") from None


def with_message(desk: Desk, text: str) -> str:
    """The list's address showing `text` once; signed, so a link made elsewhere cannot put
    its own words on the staff page."""
    from urllib.parse import urlencode

    text = text[:1500]
    return "/staff?" + urlencode({"m": text, "s": staff_cookie_value(desk.secret, "m:" + text)})


def message(request: Request) -> str | None:
    text = request.query_params.get("m")
    if text is None:
        return None
    desk = desk_of(request)
    ok = same(request.query_params.get("s"), staff_cookie_value(desk.secret, "m:" + text))
    return text if ok else None
