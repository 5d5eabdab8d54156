"""The staff pages (never open without the token or the password), one module per page:
`access` (login, the staff cookie, the judge's name), `listing` (the list and the deadline),
`registration` (one player), `exports` (sheets, the report, imports).

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

from starlette.routing import Route

from deckcheck.desk.staff import exports, listing, registration
from deckcheck.desk.staff.access import login, logout
from deckcheck.desk.web import route


def routes() -> list[Route]:
    return [
        route("/staff", listing.overview), route("/staff/login", login, ["POST"]),
        route("/staff/logout", logout, ["POST"]),
        route("/staff/p/{reg_id:int}", registration.player_page),
        route("/staff/p/{reg_id:int}/update", registration.update, ["POST"]),
        route("/staff/p/{reg_id:int}/compare", registration.compare, ["POST"]),
        route("/staff/p/{reg_id:int}/sheet.xlsx", registration.sheet),
        route("/staff/sheets", exports.sheets),
        route("/staff/sheets.pdf", exports.sheets_pdf),
        route("/staff/export.{kind}", exports.export),
        route("/staff/import", exports.import_files, ["POST"]),
        route("/staff/settings", listing.settings, ["POST"]),
    ]
