"""Errors a user can cause. Each is one sentence: what went wrong, where, and what to do.

The library raises these; the CLI turns them into a one-line message and exit code 2.
Every class's docstring is its default message.
"""

from __future__ import annotations


class DeckcheckError(Exception):
    """deckcheck could not do that."""

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or (self.__doc__ or "").strip())

    @property
    def message(self) -> str:
        return str(self)


class CardPoolError(DeckcheckError):
    """The card database could not be used."""


class StoreVersionError(CardPoolError):
    """The card database file was written by another version of deckcheck or is not a
    deckcheck database."""


class FailedDownload(DeckcheckError):
    """A download failed; nothing was changed."""


class ImportFailed(DeckcheckError):
    """A card data file could not be imported; nothing was changed."""


class DeckReadError(DeckcheckError):
    """A deck file could not be read."""


class DeckWriteError(DeckcheckError):
    """A deck could not be written."""


class FormatError(DeckcheckError):
    """A format or banlist file is not valid."""


class UnknownFormat(FormatError):
    """No such format."""


class ProfileError(DeckcheckError):
    """A goldfishing profile is not valid."""


class SimError(DeckcheckError):
    """The simulation could not be run on this deck."""


class IllegalAction(SimError):
    """That action is not allowed by the rules in this duel state."""


class ExactTooLarge(SimError):
    """The exact calculation would enumerate too many hands: use --hands N (Monte Carlo)."""


class UnknownRule(DeckcheckError):
    """No rule has that code or name."""


class NoListInForce(FormatError):
    """No list of the format was in force on that date (deckcheck ships every list it knows):
    check the date, or pass --banlist."""


class UnknownBanlist(FormatError):
    """No such banlist: give a format id, a list name (`deckcheck banlist list`) or a file."""


class BadDate(DeckcheckError):
    """The date is not a valid YYYY-MM-DD date."""


class UnknownCard(CardPoolError):
    """No card has that name or passcode."""

    @classmethod
    def for_name(cls, query: str, suggestions: list[str]) -> UnknownCard:
        if len(query) > MAX_NAME:
            return cls(f"No card is named {query[:60]!r}… ({len(query):,} characters, longer "
                       f"than any card name: at most {MAX_NAME}); check what was pasted.")
        hint = (f"; did you mean {', '.join(repr(s) for s in suggestions)}?" if suggestions
                else "; check the spelling, or run `deckcheck cards update` for the full pool.")
        return cls(f"No card named or numbered {query!r} is in the card pool{hint}")


#: No card name is longer (the longest have about 70 characters); longer input is not looked
#: up, and a message shows at most `ECHO` characters of any input.
MAX_NAME = 200
ECHO = 200


def shown(text: str, limit: int = ECHO) -> str:
    """`text` quoted for a message, cut to `limit` characters ("…" and the length after)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit - 40]!r}… ({len(text):,} characters)"


class BadOption(DeckcheckError):
    """An option's value cannot be used."""


class OutputError(DeckcheckError):
    """An output file could not be written."""


def sentence(exc: BaseException) -> str:
    """The one sentence to show for an error: a deckcheck error's message; for an operating
    system error, what failed and on which file, with what to check."""
    if isinstance(exc, DeckcheckError):
        return exc.message
    if isinstance(exc, OSError):
        what = exc.strerror or str(exc)
        where = exc.filename
        if where:
            return f"{where}: {what}; check the path and its permissions."
        return f"{what}; check the paths and their permissions."
    text = str(exc).strip() or type(exc).__name__
    return text if text.endswith((".", "?", "!")) else text + "."
