"""Goldfishing profiles as written: the TOML file format, read and validated.

A profile tags cards with **roles**, states **conditions** on the hand, and may say what
**draw and search cards** do (a built-in table, `cardrules`, already knows the common draw
cards; a profile entry overrides it field by field). The format, with examples, is described
in the README ("Goldfishing profiles"); each example there is run by a test.

deckcheck finds a profile next to the deck (``deck.ydk`` -> ``deck.profile.toml`` or
``deck.toml``), or takes it from ``--profile``, or builds it from ``--role``/``--need``.

Modules: this one (the file), `conditions` (the condition tree and its normal form),
`compiled` (names resolved against one deck: classes of cards, terms to evaluate).
Validation: unknown keys and wrong types are errors, reported in one sentence with the TOML
key path (``cards."Pot of Desires".draw: …``). A plainly well-formed profile is checked here
(plain data, no pydantic on the `odds` path); anything else goes to the pydantic models of
`_profile_schema`, which coerce what they coerce and word the error.
"""

from __future__ import annotations

import os
import tomllib
from typing import TYPE_CHECKING, Any

from deckcheck.decks.files import stem_suffix
from deckcheck.errors import ProfileError
from deckcheck.sim.goldfish.profile_fields import (
    BEHAVIOUR_KINDS,
    Behaviour,
    CardEntry,
    Options,
    ProfileFile,
    RoleSpec,
    keys,
    kind_problem,
    plain_rules,
    plain_value,
)

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["Behaviour", "CardEntry", "Options", "ProfileFile", "RoleSpec", "behaviour",
           "inline_profile", "inline_roles", "kind_problem",
           "load_profile_file", "parse_profile", "path_text", "profile_next_to", "split_cards"]


def _str_list(value: object) -> bool:
    return type(value) is list and all(type(x) is str for x in value)


def _str_dict(value: object) -> bool:
    return type(value) is dict and all(type(k) is str for k in value)


def _plain_profile(data: object) -> ProfileFile | None:
    """`data` as a ProfileFile when every part of it is what pydantic would take unchanged
    (None: let pydantic coerce or word the problem)."""
    if not isinstance(data, dict) or not _str_dict(data) or not set(data) <= set(
            keys(ProfileFile)):
        return None
    options = _plain_options(data.get("options", {}))
    roles = _plain_roles(data.get("roles", {}))
    cards = _plain_cards(data.get("cards", {}))
    rows, side = data.get("rows", {}), data.get("side", {})
    if (options is None or roles is None or cards is None
            or not _str_dict(data.get("conditions", {}))
            or not _str_dict(rows) or not all(_str_dict(v) for v in rows.values())
            or not _str_dict(side)):
        return None
    return ProfileFile(success=data.get("success"), success_first=data.get("success_first"),
                       success_second=data.get("success_second"), options=options,
                       roles=roles, conditions=dict(data.get("conditions", {})), cards=cards,
                       rows={k: dict(v) for k, v in rows.items()}, side=dict(side))


def _plain_options(o: object) -> Options | None:
    rules = plain_rules(Options)
    if not _str_dict(o) or not all(k in rules and plain_value(v, rules[k][0])
                                   for k, v in o.items()):  # type: ignore[attr-defined]
        return None
    return Options(**o)  # type: ignore[arg-type]


def _plain_roles(roles: object) -> dict[str, list[str] | RoleSpec] | None:
    if not _str_dict(roles):
        return None
    out: dict[str, list[str] | RoleSpec] = {}
    for name, spec in roles.items():  # type: ignore[attr-defined]
        if _str_list(spec):
            out[name] = list(spec)
        elif _str_dict(spec) and set(spec) <= set(keys(RoleSpec)) and all(
                _str_list(v) for v in spec.values()):
            out[name] = RoleSpec(**{k: list(v) for k, v in spec.items()})
        else:
            return None
    return out


def _plain_cards(cards: object) -> dict[str, CardEntry] | None:
    if not _str_dict(cards):
        return None
    rules = plain_rules(CardEntry)
    out: dict[str, CardEntry] = {}
    for name, entry in cards.items():  # type: ignore[attr-defined]
        if not _str_dict(entry) or not all(k in rules and plain_value(v, rules[k][0])
                                           for k, v in entry.items()):
            return None
        out[name] = CardEntry.of(entry)
    return out


def behaviour(base: dict[str, Any] | None, entry: CardEntry | None,
              path: str, source: str) -> Behaviour | None:
    """The built-in behaviour `base` with the fields `entry` sets laid over it; None when the
    card is not played."""
    fields = dict(base or {})
    if entry is not None:
        given = dict(entry.given)
        if given.get("play") is False:
            return None
        given.pop("play", None)
        if set(BEHAVIOUR_KINDS) & set(given):  # a new kind replaces the built-in one
            for k in BEHAVIOUR_KINDS:
                fields.pop(k, None)
        fields.update(given)
    rules = plain_rules(Behaviour)
    if all(k in rules and (plain_value(v, rules[k][0]) or v is None and rules[k][1])
           for k, v in fields.items()):
        b = Behaviour(**fields)
        if kind_problem(b) is None:
            return b
    from deckcheck.sim.goldfish._profile_schema import to_plain, validate_behaviour

    b_out: Behaviour = to_plain(validate_behaviour(fields, source, path))
    return b_out


def path_text(path: str | os.PathLike[str]) -> str:
    """`str(Path(path))`: the path as pathlib writes it (messages and reports name a profile
    so), without importing pathlib (~4 ms of `odds`) for a path already written so: on POSIX,
    no empty or "." part and no slash at the end."""
    s = os.fspath(path)
    if (os.name == "posix" and s and s != "." and "//" not in s and "/./" not in s
            and not s.startswith("./") and not s.endswith(("/", "/."))):
        return s
    from pathlib import Path

    return str(Path(s))


def load_profile_file(path: str | Path) -> ProfileFile:
    """Read and validate a profile TOML file."""
    p = path_text(path)
    try:
        with open(p, encoding="utf-8") as f:
            data = tomllib.loads(f.read())
    except FileNotFoundError:
        raise ProfileError(f"No profile file {p}; check the path.") from None
    except IsADirectoryError:
        raise ProfileError(f"{p} is a folder, not a profile file; give a .profile.toml file."
                           ) from None
    except UnicodeDecodeError:
        raise ProfileError(f"{p} is not a text file; give a profile TOML file saved as UTF-8."
                           ) from None
    except OSError as exc:
        raise ProfileError(f"{p}: cannot be read ({exc.strerror}); check the file.") from None
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{p}: not valid TOML ({exc}); fix the syntax.") from None
    return parse_profile(data, p)


def parse_profile(data: dict[str, Any], source: str = "profile") -> ProfileFile:
    """A profile's data (as TOML reads it) checked: unknown keys and wrong types are a
    ProfileError naming the key path."""
    plain = _plain_profile(data)
    if plain is not None:
        return plain
    from deckcheck.sim.goldfish._profile_schema import to_plain, validate_profile

    pf: ProfileFile = to_plain(validate_profile(data, source))
    return pf


def profile_next_to(deck_path: str | os.PathLike[str]) -> str | None:
    """The profile next to a deck file, deck.profile.toml then deck.toml, as a path string
    (`path_text`), without importing pathlib: the deck's name with its suffix (pathlib's:
    from the last dot, not a leading or trailing one; `decks.files.stem_suffix`) replaced."""
    p = path_text(deck_path)
    head, _, name = p.rpartition("/") if os.name == "posix" else ("", "", "")
    if os.name != "posix" or name in ("", ".", ".."):  # (pathlib's own rules, to the letter)
        from pathlib import Path

        try:
            paths = [Path(p).with_suffix(s) for s in (".profile.toml", ".toml")]
        except ValueError:  # "/", ".": no file name to put a suffix on
            return None
        return next((str(c) for c in paths if c.is_file() and c != Path(p)), None)
    stem = stem_suffix(name)[0]
    base = f"{head}/{stem}" if head or p.startswith("/") else stem
    for cand in (base + ".profile.toml", base + ".toml"):
        if cand != p and os.path.isfile(cand):
            return cand
    return None


def inline_roles(roles: list[str]) -> dict[str, list[str] | RoleSpec]:
    """Roles from `--role NAME="Card A,Card B"` options. A card name with a comma in it is
    written in double quotes inside the list (`--role 'x="Name, with comma",Other'`) or the
    list is separated by semicolons (`--role "x=Name, with comma;Other"`)."""
    role_map: dict[str, list[str] | RoleSpec] = {}
    for r in roles:
        name, sep, cards = r.partition("=")
        if not sep or not name.strip():
            raise ProfileError(f"--role {r!r} is not NAME=\"Card A,Card B\"; write it that way.")
        role_map[name.strip()] = split_cards(cards)
    return role_map


def split_cards(text: str) -> list[str]:
    """'A,B' / '"A, with comma",B' / 'A, with comma;B' -> card names."""
    text = text.strip()
    if ";" in text:
        parts = text.split(";")
    elif text.startswith('"') and text.endswith('"') and text.count('"') == 2:
        parts = text[1:-1].split(",")  # the whole list quoted: NAME="A,B"
    else:
        import csv  # (only for a quoted list: off the start-up path)

        parts = next(csv.reader([text], skipinitialspace=True), [])
    return [p.strip().strip('"').strip() for p in parts if p.strip().strip('"').strip()]


def inline_profile(roles: list[str], needs: list[str]) -> ProfileFile:
    """A profile from `--role NAME="Card A,Card B"` and `--need "NAME>=1"` options."""
    if not needs:
        raise ProfileError("No condition given: add --need \"ROLE>=1\" (or a --profile file).")
    return ProfileFile(roles=inline_roles(roles), conditions={n: n for n in needs})


