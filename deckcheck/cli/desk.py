"""`deckcheck desk`: start the registration desk (a local web app) for one event.

The web stack (Starlette, Jinja2, uvicorn) is the optional `desk` extra and is imported only
here, inside the command, so the rest of the CLI starts without it.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

import click

from deckcheck.cli.common import Ctx, UserError, handle_errors
from deckcheck.cli.params import DATE

if TYPE_CHECKING:  # (imported by the command itself, not by `deckcheck --help`)
    from pathlib import Path

#: The modules of the `desk` extra (import names).
DESK_MODULES = ("starlette", "jinja2", "uvicorn", "python_multipart")
INSTALL = ("`deckcheck desk` needs the desk extra; install it with "
           "pip install 'deckcheck[desk]'.")


def desk_extra_missing() -> list[str]:
    import importlib.util

    return [m for m in DESK_MODULES if importlib.util.find_spec(m) is None]


def _default_store(event: str) -> Path:
    import re
    from pathlib import Path

    slug = re.sub(r"[^A-Za-z0-9]+", "-", event).strip("-").lower() or "event"
    return Path(f"{slug[:60]}.db")


@click.command("desk")
@click.option("--event", "event_name", required=True, help="The event's name, shown on every "
              "page, e.g. \"Regional Berlin\".")
@click.option("--format", "format_", default="tcg", show_default=True,
              help="Format id the decks are checked under.")
@click.option("--date", type=DATE, default=None, help="Event date (the list in force that "
              "day applies; default today).")
@click.option("--deadline", default=None, help="When submissions close, YYYY-MM-DD HH:MM "
              "(local time; staff may change it).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0 for every network of this computer).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on.")
@click.option("--store", default=None, type=click.Path(dir_okay=False),
              help="The event's SQLite file (default: the event name, e.g. "
              "regional-berlin.db); reopening it keeps every submission.")
@click.option("--token", default=None, envvar="DECKCHECK_DESK_TOKEN",
              help="Staff token (default: one made on first start and kept in the store; "
              "env DECKCHECK_DESK_TOKEN).")
@click.option("--password", default=None, envvar="DECKCHECK_DESK_PASSWORD",
              help="Also let staff log in with this password (env DECKCHECK_DESK_PASSWORD).")
@click.option("--submit-limit", default=300, show_default=True, type=click.IntRange(0),
              help="Submissions per client address per minute (0: no limit); a venue's "
              "players often share one address.")
@click.option("--player-limit", default=6, show_default=True, type=click.IntRange(0),
              help="Submissions per player (name and CARD GAME ID) per minute (0: no limit).")
@click.option("--trusted-proxy", "trusted_proxies", multiple=True, metavar="ADDRESS",
              help="A reverse proxy in front of the desk whose X-Forwarded-For header is "
              "believed (repeat for several); without it the header is ignored.")
@click.option("--accept-illegal", is_flag=True, help="Register illegal lists as sent (for "
              "events that penalise at the table); by default an illegal list is kept and "
              "shown but never replaces a legal one.")
@click.pass_obj
@handle_errors
def desk(obj: Ctx, event_name: str, format_: str, date: dt.date | None, deadline: str | None,
         host: str, port: int, store: str | None, token: str | None, password: str | None,
         submit_limit: int, player_limit: int, trusted_proxies: tuple[str, ...],
         accept_illegal: bool) -> None:
    """Start the registration desk for one event: players submit their decks in a browser
    and see every problem at once; staff see every registration, duplicates and history,
    export the event report and compare lists at deck checks. Stop it with Ctrl+C."""
    missing = desk_extra_missing()
    if missing:
        raise UserError(INSTALL)
    from pathlib import Path

    import uvicorn

    from deckcheck.desk.app import create_app
    from deckcheck.desk.settings import DeskSettings, parse_deadline
    from deckcheck.desk.store import StoreError

    when = None
    if deadline is not None:
        try:
            when = parse_deadline(deadline)
        except ValueError as exc:
            raise UserError(str(exc)) from None
    settings = DeskSettings(event=event_name, store=Path(store) if store else
                            _default_store(event_name), format=format_,
                            date=date, deadline=when,
                            token=token, password=password, db=obj.db,
                            submit_limit=submit_limit, player_limit=player_limit,
                            trusted_proxies=tuple(trusted_proxies),
                            accept_illegal=accept_illegal)
    try:
        app = create_app(settings)
    except StoreError as exc:
        raise UserError(str(exc)) from None
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise UserError(f"Cannot listen on {host}:{port} ({exc.strerror}); pick another "
                        "--port, or stop the program using it.") from None
    state = app.state.desk
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    base = f"http://{shown}:{port}"
    click.echo(f"{event_name}: {state.lib.format_name}"
               f"{', list ' + state.lib.banlist_name if state.lib.banlist_name else ''}, "
               f"as of {state.lib.date.isoformat()}; store {settings.store}")
    for notice in state.lib.notices:
        click.echo(f"note: {notice}", err=True)
    click.echo(f"Players: {base}/")
    click.echo(f"Staff:   {base}/staff?token={state.token}")
    if shown != host:
        click.echo("Players on the venue network use this computer's network address in place "
                   "of 127.0.0.1.")
    if accept_illegal:
        click.echo("Illegal lists are registered as sent (--accept-illegal).")
    # the desk reads X-Forwarded-For itself, from --trusted-proxy only (uvicorn would
    # believe any header sent from 127.0.0.1)
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning",
                                           proxy_headers=False))
    server.run(sockets=[sock])
