"""Formats and banlists: the data files under `banlists/`, their models, and list import/export.

    load_format("tcg").banlist_at(date)      the list in force that day (only it is parsed)
    stale_notice(format, date)               "the newest list is old" notice, or None
    list_formats()                           every format id
    load_banlist_file(path, pool=None)       lists from a deckcheck .toml or EDOPro .lflist.conf
    find_banlist(name, date=None)            by format id, list name or file
"""

from __future__ import annotations

from deckcheck.formats.loader import (
    all_formats,
    find_banlist,
    list_formats,
    list_infos,
    load_banlist_file,
    load_format,
    search_dirs,
    user_dir,
)
from deckcheck.formats.model import Banlist, BanlistEntry, Format, LimitGroup
from deckcheck.formats.stale import stale_notice

__all__ = ["Banlist", "BanlistEntry", "Format", "LimitGroup", "all_formats", "find_banlist",
           "list_formats", "list_infos", "load_banlist_file", "load_format", "search_dirs",
           "stale_notice", "user_dir"]
