"""What the desk's pages share: the `Desk` (settings, store, library, templates, limits),
refusals (`Refused`, one sentence and a 4xx status, and the page that shows them), cleaning
what players type, sessions and CSRF tokens, rendering a template, the time as people read
it, and `route`. The pages (`player`, `staff`) import these; `app` builds the application.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from deckcheck.decks.cells import FORMULA_START
from deckcheck.desk import library
from deckcheck.desk.security import (
    CSRF_COOKIE,
    Backoff,
    RateLimiter,
    RefusalLog,
    new_secret,
    same,
    staff_cookie_value,
)
from deckcheck.desk.settings import DeskSettings
from deckcheck.desk.store import Registration, Store, Submission

MAX_NAME = 80
_ID_CHARS = re.compile(r"^[0-9][0-9 \-]{2,20}$")


class Refused(Exception):
    """A request the desk answers with a 4xx status and one sentence."""

    def __init__(self, status: int, sentence: str) -> None:
        super().__init__(sentence)
        self.status = status
        self.sentence = sentence


@dataclass
class Desk:
    """Everything the pages share: settings, store, library, templates, limits."""

    settings: DeskSettings
    store: Store
    lib: library.Library
    templates: Jinja2Templates
    limiter: RateLimiter  # submissions per address
    secret: str
    token: str
    player_limiter: RateLimiter  # submissions per player
    logins: Backoff  # failed staff logins per address
    refusals: RefusalLog
    #: What the staff list shows of a submission's report, by submission id (a submission
    #: never changes: read from its JSON once, not on every look at 2,000 registrations).
    summaries: dict[int, tuple[list[str], str, tuple[str, ...]]] = field(default_factory=dict)

    # --- the event ---------------------------------------------------------------------------

    @property
    def deadline(self) -> dt.datetime | None:
        text = self.store.get_meta("deadline")
        return dt.datetime.fromisoformat(text) if text else None

    @property
    def settings_version(self) -> int:
        return int(self.store.get_meta("settings_version") or 1)

    def closed(self) -> bool:
        d = self.deadline
        return d is not None and self.settings.clock() >= d

    def counting(self, history: list[Submission]) -> Submission | None:
        """The registered list: the last *legal* one sent before the deadline (or while staff
        had reopened the registration). An illegal list never replaces it, unless the event
        accepts illegal lists (`accept_illegal`): then the last one sent counts."""
        d = self.deadline
        ok = [s for s in history
              if (s.late or d is None or dt.datetime.fromisoformat(s.created_at) <= d)
              and (self.settings.accept_illegal or s.verdict == "legal")]
        return ok[-1] if ok else None

    @staticmethod
    def checked(reg: Registration | None, registered: Submission | None) -> bool:
        """Whether the registered list is the one checked at the desk (a new list is not)."""
        return (reg is not None and registered is not None
                and reg.checked_submission == registered.id and reg.checked_at is not None)

    # --- the one way a deck gets in ------------------------------------------------------------

    def accept(self, *, player: str, player_id: str, deck: library.Deck, raw: bytes,
               origin: str, label: str, nonce: str | None, client: str | None,
               late: bool = False, session: str | None = None) -> Submission:
        """Check the deck and store it (committed) with its verdict; return the submission.
        A file in which no card was read is kept as what was read, not as the bytes sent
        (20 MB of digits would otherwise be stored as they came)."""
        report = self.lib.check(deck)
        problems = [v for v in report.violations if v.severity in ("error", "warning")]
        has_cards = any(True for _ in deck.entries())
        deck_hash = self.lib.deck_hash(deck) if has_cards else None
        if not has_cards:
            raw = b""
        return self.store.add_submission(
            player=player, player_id=player_id or None, origin=origin, label=label, raw=raw,
            deck_json=library.deck_to_json(deck), report_json=library.report_to_json(report),
            verdict=report.verdict, problem_count=len(problems), deck_hash=deck_hash,
            late=late, client=client, nonce=nonce, session=session,
            created_at=self.settings.clock())


# --- checks on what people type --------------------------------------------------------------

def clean_name(text: str, what: str = "name") -> str:
    name = " ".join(unicodedata.normalize("NFC", text).split())
    if not name:
        raise Refused(400, f"Write your {what}: it goes on the registration.")
    if len(name) > MAX_NAME:
        raise Refused(400, f"The {what} is longer than {MAX_NAME} characters; write it as on "
                           "your CARD GAME ID.")
    if name.startswith(FORMULA_START):
        raise Refused(400, f"A {what} cannot start with =, +, - or @ (spreadsheets would run "
                           "it as a formula); write it as on your CARD GAME ID.")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") for c in name):
        raise Refused(400, f"The {what} holds control or invalid characters; type it again.")
    if "/" in name or "\\" in name or "\ufffd" in name:
        raise Refused(400, f"A {what} cannot hold / or \\ or characters that are not valid "
                           "text; write it as on your CARD GAME ID.")
    return name


def clean_player_id(text: str) -> str:
    s = text.strip()
    if not s:
        raise Refused(400, "Write your CARD GAME ID (the number on your Konami ID card): staff "
                           "use it to find your registration.")
    if not _ID_CHARS.match(s):
        raise Refused(400, "A CARD GAME ID is a number (digits only, e.g. 0301234567); check "
                           "the one you typed.")
    digits = re.sub(r"\D", "", s)
    if not 4 <= len(digits) <= 12:
        raise Refused(400, "A CARD GAME ID has 4 to 12 digits (usually 10, e.g. 0301234567); "
                           "check the one you typed.")
    return digits


def clean_filename(name: str, *, deck: bool = True) -> str:
    """An uploaded file's name, for messages only: refused if it tries to name a path, or
    (`deck`) if its extension is not one of a deck file."""
    if "/" in name or "\\" in name or "\x00" in name or name.strip(". ") == "" or ".." in name:
        raise Refused(400, "The file name holds a folder path or '..'; upload the deck file "
                           "itself with a plain name such as deck.ydk.")
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in name) or len(name) > 120:
        raise Refused(400, "The file name holds control characters or is too long; rename the "
                           "file (e.g. deck.ydk) and upload it again.")
    ext = PurePath(name).suffix.lower()
    if deck and ext and ext not in library.DECK_EXTENSIONS:
        raise Refused(415, f"{name} is not a deck file deckcheck reads; upload a .ydk, .xlsx, "
                           ".csv or .txt file, or paste the list.")
    return name


def client_of(request: Request) -> str:
    """The client's address: the peer, or, when the peer is a configured proxy, the last
    address of X-Forwarded-For that no trusted proxy added (a header from anyone else is
    ignored: it would let one client pose as many)."""
    peer = request.client.host if request.client else "unknown"
    trusted = desk_of(request).settings.trusted_proxies
    if peer not in trusted:
        return peer
    hops = [h.strip() for h in request.headers.get("x-forwarded-for", "").split(",")
            if h.strip()]
    while hops and hops[-1] in trusted:
        hops.pop()
    return hops[-1] if hops else peer


def session_of(request: Request) -> str | None:
    """This browser's session (a MAC of its CSRF cookie), or None without one: what binds a
    submission and its one-time form token to the browser that sent it."""
    cookie = request.cookies.get(CSRF_COOKIE)
    if not cookie:
        return None
    return staff_cookie_value(desk_of(request).secret, "session:" + cookie)


# --- rendering -------------------------------------------------------------------------------

def csrf_token(request: Request) -> tuple[str, bool]:
    """The browser's CSRF token, and whether it is new (the cookie must be set)."""
    have = request.cookies.get(CSRF_COOKIE)
    if have and re.fullmatch(r"[A-Za-z0-9_\-]{20,64}", have):
        return have, False
    token = request.scope.get("desk.csrf")
    if token is None:
        token = request.scope["desk.csrf"] = new_secret()
    return str(token), True


def check_csrf(request: Request, form: Any) -> None:
    cookie = request.cookies.get(CSRF_COOKIE)
    sent = form.get("csrf")
    if not isinstance(sent, str) or not same(cookie, sent):
        raise Refused(403, "This form has expired or came from another page; reload the page "
                           "and send it again.")


def desk_of(request: Request) -> Desk:
    desk: Desk = request.app.state.desk
    return desk


def render(request: Request, name: str, context: dict[str, Any], status: int = 200
           ) -> Response:
    desk = desk_of(request)
    token, new = csrf_token(request)
    ctx = {"event": desk.settings.event, "lib": desk.lib, "desk": desk, "csrf": token,
           **context}
    response = desk.templates.TemplateResponse(request, name, ctx, status_code=status)
    if new:
        response.set_cookie(CSRF_COOKIE, token, httponly=True, samesite="strict",
                            secure=request.url.scheme == "https")
    return response


def refusal_page(request: Request, exc: Exception) -> Response:
    if isinstance(exc, Refused):
        status, sentence = exc.status, exc.sentence
    elif isinstance(exc, HTTPException):
        status = exc.status_code
        sentence = {404: "There is no such page here; check the address.",
                    405: "That page cannot be used this way; go back and use its form."}.get(
            status, str(exc.detail) if exc.detail else "The request could not be served.")
        if status == 400 and exc.detail:  # the form parser's own limits
            sentence = f"The form could not be read ({exc.detail.rstrip('.')}); send it again."
    else:  # pragma: no cover - Starlette only routes the types above here
        status, sentence = 500, "Something went wrong at the desk."
    headers = {"Retry-After": "60"} if status == 429 else None
    response = render(request, "error.html", {"status": status, "sentence": sentence}, status)
    if headers:
        response.headers.update(headers)
    return response


def local_time(value: str | dt.datetime | None) -> str:
    """A time as people read it, in the desk computer's zone, with the zone named
    ("2026-12-05 09:30:00 CET (UTC+01:00)")."""
    if value is None:
        return ""
    when = dt.datetime.fromisoformat(value) if isinstance(value, str) else value
    local = when.astimezone()
    offset = local.strftime("%z")
    utc = f"UTC{offset[:3]}:{offset[3:]}" if offset else "UTC"
    name = local.tzname() or ""
    zone = utc if not name or name == "UTC" or name.startswith(("+", "-")) else \
        f"{name} ({utc})"
    return local.strftime("%Y-%m-%d %H:%M:%S") + " " + zone


def fix_hint(v: Any) -> str:
    """How to fix one problem, from its numbers (the message says what is wrong)."""
    if v.suggestions:
        return "Did you mean " + " or ".join(v.suggestions[:3]) + "? Correct the name."
    if v.card and v.count is not None and v.limit is not None:
        if v.limit == 0:
            return f"Take every copy of {v.card} out of the deck."
        if v.count > v.limit:
            return f"Keep at most {v.limit} of {v.card}: take out {v.count - v.limit}."
    if v.card is None and v.count is not None and v.limit is not None and v.section:
        return f"Change the {v.section} deck to the allowed size."
    if library.where(v):
        return f"Change the line at {library.where(v)}."
    return "Change the deck as the message says."


def route(path: str, endpoint: Any, methods: list[str] | None = None) -> Route:
    return Route(path, endpoint, methods=methods or ["GET"])
