"""Merge the records of every imported source into one pool keyed by passcode.

- Alternate artworks are the same card: YGOPRODeck `card_images`, and a cdb `alias` whose
  target has the same name. An `alias` to a differently named card is same-name evidence.
- Prerelease ids (EDOPro mappings, YAML Yugi fake passwords) join the official card.
- Card facts come from the highest-priority source that has them (YGOPRODeck, YAML Yugi,
  EDOPro, ygocdb); names are merged language by language; records that only add names or
  ids (`enrich_only`) never create cards, and a record without a card type makes none.
- `rule_name`: every source gives one opinion (its first resolvable claim, else "own name");
  Japanese and Chinese claims are mapped to cards through the merged name index. A claim
  wins unless more sources are silent than agree with it. Chains resolve to their end;
  the result is the target's canonical English name.

Everything here works on plain dicts (fast for 14k cards); the import validates the result
(`deckcheck.imports.guard.validate`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from deckcheck.cards.model import UNOFFICIAL_IDS, Card
from deckcheck.cards.names import normalize
from deckcheck.sources.records import SourceRecord

#: merge priority: earlier sources win for card facts and names.
PRIORITY = ("ygoprodeck", "yaml-yugi", "edopro", "ygocdb", "ygojson", "edopro-mappings")

#: Cards of other games (Rush Duel, Speed Duel skills) keep their own scopes.
_OTHER_GAMES = frozenset({"rush", "speed", "skill"})

#: The fields a card takes from its best source that has them (`_combine`): every `Card`
#: field but those the merge works out itself.
_WORKED_OUT = frozenset({"passcode", "alt_passcodes", "name", "names", "kind", "frame",
                         "archetypes", "scopes", "released", "master_duel",
                         "cannot_normal_summon", "rule_name", "rule_name_evidence"})
FIELDS = tuple(f for f in Card.model_fields if f not in _WORKED_OUT)
_CHAIN_LIMIT = 16


class Keys(dict[str, str]):
    """name -> `normalize(name)`, each name normalised once (a plain dict lookup after)."""

    def __missing__(self, name: str) -> str:
        key = self[name] = normalize(name)
        return key


@dataclass
class Merged:
    cards: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: every id a card answers to -> (passcode, "main" | "alt" | "prerelease")
    ids: dict[int, tuple[int, str]] = field(default_factory=dict)
    #: normalised name -> passcodes
    names: dict[str, list[int]] = field(default_factory=dict)
    #: every name the merge saw -> its normalised key (`normalize`), for the store's indexes
    keys: Keys = field(default_factory=Keys)


def priority(source: str) -> int:
    """A source's rank in `PRIORITY` ("edopro:cards.cdb" ranks as "edopro"; unknown last)."""
    base = _base(source)
    return PRIORITY.index(base) if base in PRIORITY else len(PRIORITY)


def _base(source: str) -> str:
    return source.split(":", 1)[0]


#: (source name, record) in merge order: best source first
_Pairs = list[tuple[str, SourceRecord]]


class _Artworks:
    """Alternate artworks: every id that is another artwork of a card -> that card's id."""

    def __init__(self) -> None:
        self.alt_of: dict[int, int] = {}

    def main(self, pc: int) -> int:
        """The main passcode of `pc` (itself when it is no alternate artwork)."""
        alt_of = self.alt_of
        seen = 0
        while pc in alt_of and seen < _CHAIN_LIMIT:
            pc = alt_of[pc]
            seen += 1
        return pc


def merge(sources: Mapping[str, Sequence[SourceRecord]]) -> Merged:
    """Merge every source's records into cards, their ids and a name index."""
    order = sorted(sources, key=lambda s: (priority(s), s))
    pairs: _Pairs = [(src, rec) for src in order for rec in sources[src]]
    keys = Keys()
    art = _listed_artworks(pairs)
    alias_hints = _cdb_aliases(pairs, art, keys)
    groups, extra_of, group_of = _group(pairs, art, keys)
    out = _build(groups, art, extra_of, group_of)
    out.keys = keys
    _index_names(out, groups)
    _rule_names(out, groups, alias_hints)
    return out


def _listed_artworks(pairs: _Pairs) -> _Artworks:
    """1. the alternate artworks sources list (YGOPRODeck `card_images`, YGOJSON)."""
    art = _Artworks()
    alt_of = art.alt_of
    for _, rec in pairs:
        pc = rec["passcode"]
        for alt in rec.get("alt_passcodes") or ():
            # a source that calls the main artwork an alternate of its own (YGOJSON's
            # first password is not always YGOPRODeck's) would make a cycle
            if alt != pc and alt not in alt_of and art.main(pc) != alt:
                alt_of[alt] = pc
    return art


def _cdb_aliases(pairs: _Pairs, art: _Artworks, keys: Keys) -> dict[tuple[str, int], int]:
    """2. cdb aliases: to a card of the same name, an alternate artwork (added to `art`); to
    another name, same-name rule evidence (returned: (source, passcode) -> target)."""
    aliased = [(src, rec) for src, rec in pairs
               if (alias := rec.get("alias")) and alias != rec["passcode"]]
    if not aliased:  # no cdb among the sources (a `cards update`): nothing to look up
        return {}
    name_of: dict[int, str] = {}
    for _, rec in pairs:
        if rec.get("name") and not rec.get("enrich_only"):
            name_of.setdefault(rec["passcode"], rec["name"])
    alias_hints: dict[tuple[str, int], int] = {}
    for src, rec in aliased:
        alias = rec["alias"]
        target = art.main(alias)
        tname = name_of.get(target) or name_of.get(alias)
        if tname is None:
            continue
        if keys[tname] == keys[rec.get("name") or ""]:
            if rec["passcode"] != target and rec["passcode"] not in art.alt_of:
                art.alt_of[rec["passcode"]] = target
        else:
            alias_hints[(src, rec["passcode"])] = target
    return alias_hints


def _group(pairs: _Pairs, art: _Artworks, keys: Keys) -> tuple[
        dict[int, _Pairs], dict[int, int], Callable[[int], int]]:
    """3. the records of each card: its artworks and prerelease ids together. Returns the
    groups, prerelease id -> official passcode, and the group of any id."""
    main = art.main
    alt_of = art.alt_of
    # `main` called only for an alternate artwork's id (few)
    real = {pc if (pc := rec["passcode"]) not in alt_of else main(pc) for _, rec in pairs
            if not rec.get("enrich_only") and rec.get("kind")}
    extra_of: dict[int, int] = {}
    for _, rec in pairs:
        for pre in rec.get("extra_ids") or ():
            official = main(rec["passcode"])
            if pre != official:
                extra_of.setdefault(pre, official)
    _join_prerelease_ids(pairs, real, main, extra_of, keys)

    def group_of(pc: int) -> int:
        m = main(pc)
        if m in extra_of and extra_of[m] in real:
            return extra_of[m]
        return m

    groups: dict[int, _Pairs] = {}
    for pair in pairs:
        pc = pair[1]["passcode"]
        # `group_of`, its call saved for the id of no artwork and no prerelease id (most)
        g = pc if pc not in alt_of and pc not in extra_of else group_of(pc)
        if g in real:
            if (recs := groups.get(g)) is None:
                groups[g] = [pair]
            else:
                recs.append(pair)
    return groups, extra_of, group_of


def _build(groups: dict[int, _Pairs], art: _Artworks, extra_of: dict[int, int],
           group_of: Callable[[int], int]) -> Merged:
    """The cards, and every id each answers to (main, alternate artworks, prerelease ids)."""
    out = Merged()
    prio: dict[str, int] = {}
    for g, recs in groups.items():
        # records come in source order; only a group with a record under another id (an
        # alternate artwork, a prerelease id) needs the main passcode's records moved first
        if len(recs) > 1 and any(r["passcode"] != g for _, r in recs):
            for src, _ in recs:
                if src not in prio:
                    prio[src] = priority(src)
            recs.sort(key=lambda sr: (prio[sr[0]], sr[1]["passcode"] != g))
        card = _combine(g, recs)
        if card is not None:
            out.cards[g] = card
            out.ids[g] = (g, "main")
    for alt in art.alt_of:
        g = group_of(alt)
        if g in out.cards and alt != g and alt not in out.ids:
            out.ids[alt] = (g, "alt")
            out.cards[g]["alt_passcodes"].append(alt)
    for pre, official in extra_of.items():
        hops = 0
        while official not in out.cards and official in extra_of and hops < _CHAIN_LIMIT:
            official, hops = art.main(extra_of[official]), hops + 1
        if pre not in out.ids and official in out.cards:
            out.ids[pre] = (official, "prerelease")
    for card in out.cards.values():
        if alts := card["alt_passcodes"]:  # most cards have none: their list stays
            card["alt_passcodes"] = sorted(set(alts))
    return out


def _index_names(out: Merged, groups: dict[int, _Pairs]) -> None:
    """4. the name index: the merged names, and every name a source gave the card
    (prerelease and alternate-artwork records included). Each card's keys in the order
    its names are written (the merged names first)."""
    keys, index = out.keys, out.names
    lookup, get = keys.__getitem__, index.get  # `Keys.__missing__` normalises a new name
    for pc, card in out.cards.items():
        name = card["name"]
        written = [name, *card["names"].values()]
        for _, rec in groups[pc]:
            if names := rec.get("names"):
                written += names.values()
        # every name the English one (most cards): its key alone, without the de-duplication
        found: Iterable[str] = (lookup(name),) if written.count(name) == len(written) else \
            dict.fromkeys(map(lookup, filter(None, dict.fromkeys(written))))
        for key in found:
            if key:
                pcs = get(key)
                if pcs is None:
                    index[key] = [pc]
                else:
                    pcs.append(pc)


def _combine(g: int, recs: _Pairs) -> dict[str, Any] | None:
    """One card from its records (sorted: best source first, the main passcode first)."""
    if len(recs) == 1:
        return _combine_one(g, recs[0][1])
    return _combine_many(g, [r for _, r in recs])


def _combine_many(g: int, only: list[SourceRecord]) -> dict[str, Any] | None:
    """`_combine` of the records `only` (best first), field by field from the best source."""
    typed = next((r for r in only if r.get("kind") and r.get("frame")), None)
    if typed is None:
        return None
    names = _merged_names(only)
    name = names.get("en") or next(
        (r["name"] for r in only if r.get("name") and not r.get("enrich_only")), None)
    if not name:
        return None
    card: dict[str, Any] = {"passcode": g, "alt_passcodes": [], "name": name, "names": names,
                            "kind": typed["kind"], "frame": typed["frame"]}
    for rec in only:
        for f in FIELDS:
            if f not in card and (v := rec.get(f)) is not None:
                card[f] = v
    card["archetypes"] = next((r["archetypes"] for r in only if r.get("archetypes")), None) or []
    card["scopes"] = _scopes(g, only)
    card["released"] = _released(only)
    card["master_duel"] = _master_duel(only)
    card["cannot_normal_summon"] = any(rec.get("cannot_normal_summon") for rec in only)
    card["rule_name"] = name
    card["rule_name_evidence"] = {}
    return card


def _combine_one(g: int, rec: SourceRecord) -> dict[str, Any] | None:
    """`_combine_many` of a card with one record (every card of a one-source import, most
    cards of any): the same card (same keys in the same order), without the choices."""
    get = rec.get
    kind, frame = get("kind"), get("frame")
    if not (kind and frame):
        return None
    names = {k: v for k, v in given.items() if v} if (given := rec.get("names")) else {}
    name = names.get("en") or (rec["name"] if get("name") and not get("enrich_only") else None)
    if not name:
        return None
    card: dict[str, Any] = {"passcode": g, "alt_passcodes": [], "name": name, "names": names,
                            "kind": kind, "frame": frame}
    for f in FIELDS:  # none of them is in `card` yet
        if (v := get(f)) is not None:
            card[f] = v
    card["archetypes"] = get("archetypes") or []
    card["scopes"] = _scopes_one(g, rec)
    card["released"] = {r: day for r, day in days.items()} if (days := rec.get("released")) else {}
    md = get("master_duel")
    card["master_duel"] = None if md is None else bool(md)
    card["cannot_normal_summon"] = bool(get("cannot_normal_summon"))
    card["rule_name"] = name
    card["rule_name_evidence"] = {}
    return card


def _merged_names(only: list[SourceRecord]) -> dict[str, str]:
    """The card's name per language: the best source's that has one."""
    if len(only) == 1:  # the common case with one source: no language-by-language merging
        return {k: v for k, v in (only[0].get("names") or {}).items() if v}
    names: dict[str, str] = {}
    for rec in only:
        for lang, n in (rec.get("names") or {}).items():
            if n:
                names.setdefault(lang, n)
    return names


def _released(only: list[SourceRecord]) -> dict[str, str]:
    """The first release per region: the earliest any source dates (sources date later
    reprints)."""
    released: dict[str, str] = {}
    for rec in only:
        for region, day in (rec.get("released") or {}).items():
            if region not in released or day < released[region]:
                released[region] = day
    return released


def _master_duel(only: list[SourceRecord]) -> bool | None:
    """In Master Duel: True when any source says so, None when none says anything."""
    md: bool | None = None
    for rec in only:
        if rec.get("master_duel") is not None:
            md = bool(md) or bool(rec["master_duel"])
    return md


def _scopes(g: int, only: list[SourceRecord]) -> list[str]:
    """The best source's scopes; a TCG printing overrules "OCG only" and "prerelease"; an id
    no official card has is "unofficial" (and "anime", "custom" or "prerelease" when a
    source says so)."""
    if len(only) == 1:
        return _scopes_one(g, only[0])
    best = next((r["scopes"] for r in only if "scopes" in r), None)
    said = {s for rec in only for s in rec.get("scopes") or ()}  # every scope any source gave
    if any(rec.get("tcg_printed") for rec in only):
        best = [s for s in best or () if s not in ("ocg_only", "prerelease")]
    scopes = list(best or ())
    printed = any(rec.get("released") or rec.get("tcg_printed") or rec.get("printed")
                  for rec in only)
    return _unofficial(g, scopes, said, printed)


def _scopes_one(g: int, rec: SourceRecord) -> list[str]:
    """`_scopes` of a card with one record: the same, without the source-by-source choices."""
    given = rec.get("scopes")
    if not given and g < UNOFFICIAL_IDS:  # most cards: an official id, no scopes
        return []
    tcg = rec.get("tcg_printed")
    scopes = [s for s in given or () if s not in ("ocg_only", "prerelease")] if tcg \
        else list(given or ())
    if g < UNOFFICIAL_IDS:
        return sorted(set(scopes))
    return _unofficial(g, scopes, set(given or ()),
                       bool(rec.get("released") or tcg or rec.get("printed")))


def _unofficial(g: int, scopes: list[str], said: set[str], printed: bool) -> list[str]:
    """`_scopes`' end: the scopes, sorted, with "unofficial" (and why) for an id no official
    card has, unprinted and of no other game (`said`: every scope any source gave)."""
    if g >= UNOFFICIAL_IDS and not printed and not said & _OTHER_GAMES:
        # an id no official card has (anime, custom, prerelease): no official format allows it
        kind = "anime" if "anime" in said else "custom" if "custom" in said else \
            "prerelease" if "prerelease" in said else None
        scopes = [*scopes, "unofficial", *([kind] if kind else [])]
    return sorted(set(scopes))


def _join_prerelease_ids(pairs: _Pairs, real: set[int], main: Callable[[int], int],
                         extra_of: dict[int, int], keys: Keys) -> None:
    """A record under an id >= 100,000,000, not marked anime, custom, Rush or Skill, with the
    English name of a card another source knows by its official passcode, is that card under
    its prerelease id (YGOPRODeck lists announced cards under Konami's prerelease ids; YAML
    Yugi already has their passcodes). Only the names of such records are looked for among
    the official cards."""
    # printed or dated or not: a source that dates a card under its prerelease id
    # (YGOPRODeck before it learns the passcode) dates the official card
    todo = [(rec["passcode"], keys[rec["name"]]) for _, rec in pairs
            if rec["passcode"] >= UNOFFICIAL_IDS and rec["passcode"] not in extra_of
            and rec.get("name") and _NOT_OFFICIAL.isdisjoint(rec.get("scopes") or ())]
    if not todo:
        return
    wanted = {key for _, key in todo}
    official: dict[str, int] = {}
    for _, rec in pairs:
        pc = rec["passcode"]
        if pc < UNOFFICIAL_IDS and (name := rec.get("name")) and keys[name] in wanted \
                and not rec.get("enrich_only") and (m := main(pc)) in real \
                and _NOT_OFFICIAL.isdisjoint(rec.get("scopes") or ()):
            key = keys[name]
            was = official.get(key)
            official[key] = m if was is None or m < was else was
    for pc, key in todo:
        if pc in extra_of:  # an earlier record under the same id joined it already
            continue
        target = official.get(key)
        if target is not None and target != main(pc):
            extra_of[pc] = target


_NOT_OFFICIAL = frozenset({"anime", "custom", "unofficial", "rush", "speed", "skill"})


def _resolve_name(out: Merged, written: str, lang: str, self_pc: int) -> int | None:
    cands = [pc for pc in out.names.get(out.keys[written], ()) if pc != self_pc]
    if not cands:
        return None
    exact = [pc for pc in cands if written in (out.cards[pc]["name"],
                                                out.cards[pc]["names"].get(lang))]
    return min(exact or cands)


#: (source, evidence key, target passcode, name shown, counts as an opinion)
_Claim = tuple[str, str, int | None, str, bool]


def _rule_names(out: Merged, groups: dict[int, _Pairs],
                alias_hints: dict[tuple[str, int], int]) -> None:
    """5. the same-name rule: each card's evidence, the sources' vote, chains followed."""
    target: dict[int, int] = {}
    unresolved: dict[int, str] = {}
    for g, card in out.cards.items():
        claims, spoke = _claims(out, g, groups[g], alias_hints)
        if not claims:
            continue
        evidence: dict[str, str] = {}
        for _, key, _, shown, _ in claims:
            evidence.setdefault(key, shown)
        for key in spoke:
            evidence.setdefault(key, card["name"])
        card["rule_name_evidence"] = evidence
        best = _vote(claims, spoke)
        if best is not None and best[0] is not None:
            target[g] = best[0]
        elif best is not None:
            unresolved[g] = best[1]
    for g in out.cards:
        if g in target:
            out.cards[g]["rule_name"] = out.cards[_chain_end(g, target)]["name"]
        elif g in unresolved:
            out.cards[g]["rule_name"] = unresolved[g]


def _claims(out: Merged, g: int, recs: _Pairs, alias_hints: dict[tuple[str, int], int]
            ) -> tuple[list[_Claim], dict[str, str]]:
    """What the card's records claim about its rule name (hints resolved to cards, cdb
    aliases), and which sources spoke (evidence key -> source) without necessarily claiming."""
    claims: list[_Claim] = []
    spoke: dict[str, str] = {}
    for src, rec in recs:
        for key in rec.get("spoke") or ():
            spoke.setdefault(key, src)
        for key, kind, value, lang in rec.get("hints") or ():
            if kind == "id":
                t = value if value in out.cards else None
            else:
                t = _resolve_name(out, value, lang or "en", g)
            if t == g:
                continue
            shown = out.cards[t]["name"] if t is not None else value
            if t is None and lang not in ("en", None):
                # a Japanese/Chinese name no card has: evidence, but not a usable name
                claims.append((src, key, None, f"{value} (unknown card)", False))
            else:
                claims.append((src, key, t, shown, True))
        alias_t = alias_hints.get((src, rec["passcode"])) if alias_hints else None
        if alias_t is not None and alias_t != g and alias_t in out.cards:
            claims.append((src, f"{_base(src)}-alias", alias_t, out.cards[alias_t]["name"],
                           True))
    return claims, spoke


def _vote(claims: list[_Claim], spoke: dict[str, str]) -> tuple[int | None, str] | None:
    """One opinion per source (its first usable claim); the most common wins (ties: the best
    source's) unless more sources are silent than agree with it. None: no verdict."""
    opinion: dict[str, tuple[int | None, str]] = {}
    for src, _, t, shown, usable in claims:
        if usable:
            opinion.setdefault(src, (t, shown))
    silent = {src for src in spoke.values() if src not in opinion}
    if not opinion:
        return None
    votes = Counter(opinion.values())
    best, n = max(votes.items(), key=lambda kv: (kv[1], -min(
        priority(s) for s, o in opinion.items() if o == kv[0])))
    return None if n < len(silent) else best


def _chain_end(g: int, target: dict[int, int]) -> int:
    """Where a chain of rule-name targets from `g` ends (cycles stop where they close)."""
    seen = {g}
    t = target[g]
    while t in target and target[t] not in seen and len(seen) < _CHAIN_LIMIT:
        seen.add(t)
        t = target[t]
    return t
