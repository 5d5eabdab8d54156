"""The registration desk: a local web app where players submit decks and staff check them.

Needs the `desk` extra (`pip install 'deckcheck[desk]'`); `deckcheck desk` starts it. Build
the app with `deckcheck.desk.app.create_app(DeskSettings(...))`. Every call into the rest of
the library goes through `deckcheck.desk.library`.
"""
