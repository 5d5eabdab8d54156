"""`create_app(settings)`: the registration desk as a Starlette application.

    from deckcheck.desk.app import create_app
    from deckcheck.desk.settings import DeskSettings
    app = create_app(DeskSettings(event="Regional Berlin", store=Path("berlin.db")))

The app is built fresh from its settings (tests make one per test); pages are rendered on the
server with Jinja2 (autoescaped) and work without JavaScript. The player pages are in
`deckcheck.desk.player`, the staff pages in `deckcheck.desk.staff`, what they share in
`deckcheck.desk.web` (the pages do not import this module).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import jinja2
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.templating import Jinja2Templates

from deckcheck.desk import library
from deckcheck.desk.security import (
    Backoff,
    BodyLimit,
    RateLimiter,
    RefusalLog,
    SecurityHeaders,
    new_secret,
)
from deckcheck.desk.settings import DeskSettings
from deckcheck.desk.store import Store
from deckcheck.desk.web import Desk, Refused, fix_hint, local_time, refusal_page

TEMPLATES = Path(__file__).with_name("templates")
#: Room for the form fields around the largest deck file.
FORM_OVERHEAD = 256 * 1024
async def _server_error(request: Request, exc: Exception) -> Response:
    return HTMLResponse("<!doctype html><meta charset=utf-8><title>Error</title><p>Something "
                        "went wrong at the desk; the submission was not stored, send it "
                        "again or ask the staff.</p>", status_code=500)


async def _refused(request: Request, exc: Exception) -> Response:
    return refusal_page(request, exc)


def create_app(settings: DeskSettings) -> Starlette:
    """The desk for one event, built from its settings."""
    from deckcheck.desk import player, staff

    store = Store(settings.store)
    secret = store.meta_default("secret", new_secret(32))
    token = settings.token or store.meta_default("staff_token", new_secret(18))
    store.set_meta("event", settings.event)
    if settings.deadline is not None:
        store.set_meta("deadline", settings.deadline.isoformat())
    lib = library.Library(settings.format, settings.date, db=settings.db, pool=settings.pool)
    store.set_meta("format", lib.format_id)
    store.set_meta("date", lib.date.isoformat())
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES),
                             autoescape=jinja2.select_autoescape(default=True,
                                                                 default_for_string=True),
                             )
    env.filters["when"] = local_time
    env.globals["fix_hint"] = fix_hint
    env.globals["where"] = library.where
    templates = Jinja2Templates(env=env)
    desk = Desk(settings, store, lib, templates, RateLimiter(settings.submit_limit), secret,
                token, RateLimiter(settings.player_limit), Backoff(settings.login_limit),
                RefusalLog())
    routes = [*player.routes(), *staff.routes()]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        store.close()  # a clean stop folds the write-ahead log into the store file

    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={
        Refused: _refused, HTTPException: _refused, 500: _server_error})
    app.state.desk = desk
    app.add_middleware(BodyLimit, limit=library.max_upload_bytes() + FORM_OVERHEAD)
    app.add_middleware(SecurityHeaders)
    return app


__all__ = ["create_app"]
