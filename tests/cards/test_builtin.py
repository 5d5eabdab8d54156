"""The built-in card set: it loads, its facts agree with the real card data, and the
example decks use only its cards."""

from __future__ import annotations

import datetime as dt
import re
from array import array
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from deckcheck.cards.builtin import (
    CARDS_FILE,
    COLUMNS,
    FACTS_FILE,
    BuiltinDataError,
    BuiltinPool,
    builtin_cards,
    builtin_pool,
    facts_text,
    index_bytes,
    parse_line,
)
from deckcheck.cards.model import Card, Frame, Kind

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
PACKAGE = ROOT / "deckcheck" / "cards"

# --------------------------------------------------------------------------- loading


def test_pool_loads_and_is_cached() -> None:
    pool = builtin_pool()
    assert pool is builtin_pool()
    assert pool.info.builtin is True
    assert {"ygoprodeck", "yaml-yugi", "ygojson"} <= set(pool.info.sources)
    assert pool.info.card_count == len(pool) == len(builtin_cards())
    assert len(pool) > 14_000  # every card, not a hand-written sample


def test_the_header_says_where_each_family_of_facts_ends() -> None:
    covers = builtin_pool().info.covers
    assert set(covers) == {"cards", "tcg", "ocg", "md"}
    assert all(dt.date(2025, 1, 1) < day < dt.date(2027, 1, 1) for day in covers.values())
    sources = builtin_pool().info.sources
    assert all("data ends" in v for v in sources.values())


def _fresh() -> BuiltinPool:
    return BuiltinPool((PACKAGE / CARDS_FILE).read_bytes(),
                       (PACKAGE / "builtin_ids.tsv").read_bytes(),
                       (PACKAGE / "builtin_names.tsv").read_bytes(), facts=FACTS_FILE)


def test_bisection_finds_every_id_the_full_parse_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """`get` by bisection of the sorted file (no parse of the rest) gives the same card as
    the pool of every card parsed, for every passcode, artwork id and prerelease id, and
    None for ids between them."""
    from deckcheck.cards import builtin

    monkeypatch.setattr(builtin, "_BISECTIONS", 10**9)  # never the index (see below)
    full = _fresh()
    memory = full._all()
    ids = {pc for c in memory for pc in c.all_passcodes}
    ids |= {int(line.split("\t")[0]) for line in
            (PACKAGE / "builtin_ids.tsv").read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")}
    lazy = _fresh()
    for pc in sorted(ids):
        assert lazy.get(pc) == memory.get(pc), pc
        assert lazy.get(pc + 1) == memory.get(pc + 1), pc + 1
    assert lazy.get(0) is None and lazy.get(10**12) is None and lazy.get(-5) is None
    assert lazy._memory is None  # no look-up by passcode parsed the whole file
    assert lazy._line_index is None
    # the bisections' first steps are remembered, within a bound, and found the same lines
    from deckcheck.cards.builtin import _REMEMBERED, _find

    facts, start = lazy._facts_map()  # type: ignore[misc]  # mapped by the finds above
    # both files: the facts file's for the cards, the cards file's for what it misses
    for data, begin, probes in ((facts, start, lazy._fact_probes),
                                (lazy._data, lazy._start, lazy._probes)):
        assert 0 < len(probes) <= 2 ** _REMEMBERED
        for pc in sorted(ids)[::97]:
            assert _find(data, begin, pc, probes) == _find(data, begin, pc), pc


def test_after_many_bisections_the_pool_finds_lines_through_its_index(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A pool bisects the file for its first `_BISECTIONS` lines (one deck never pays for an
    index), then indexes it once and finds every later line through the index: the same
    cards, and None for what no card's own passcode is."""
    from deckcheck.cards import builtin

    monkeypatch.setattr(builtin, "_BISECTIONS", 3)
    pool = _fresh()
    bisected: list[int] = []
    find = builtin._find

    def spy(data: builtin.Buffer, lo: int, key: int | bytes,
            probes: dict[int, builtin.Probe] | None = None) -> bytes | None:
        if pool._facts is not None and data is pool._facts[0]:  # a card's facts line
            bisected.append(key)  # type: ignore[arg-type]
        return find(data, lo, key, probes)

    monkeypatch.setattr(builtin, "_find", spy)
    codes = [89631139, 14558127, 46986414, 55144522, 27204311, 5, 14558128, 10**12]
    cards = [pool.get(pc) for pc in codes]
    assert bisected == codes[:3] and pool._line_index is not None
    memory = _fresh()._all()
    assert cards == [memory.get(pc) for pc in codes]
    assert cards[4] is not None and cards[5] is None and cards[6] is cards[1]
    every = [c.passcode for c in memory][::11]
    assert [pool.get(pc) for pc in every] == [memory.get(pc) for pc in every]
    assert len(bisected) == 3
    # a passcode the index lacks is no card's own: the cards file is not searched again
    lines: list[int] = []
    line = pool._line
    monkeypatch.setattr(pool, "_line", lambda pc: lines.append(pc) or line(pc))
    assert [pool.get(pc) for pc in (6, 14558129, 10**11)] == [None, None, None]
    alt = pool.get(759394)  # an alternate artwork of 759393
    assert lines == []  # (comparing it with the full card next reads its line: its text)
    assert alt is not None and alt == memory.get(759394)


def test_a_looked_up_card_holds_what_a_check_reads_and_fills_in_the_rest(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`get` builds a card from the fields a check reads (`compact.ROW_FIELDS`): checking a
    deck parses no line in full; a field it does not read fills the card from its line, once;
    the card equals, pickles and copies as the full parse."""
    import copy
    import pickle

    from deckcheck.cards import builtin
    from deckcheck.cards.compact import ROW_FIELDS
    from deckcheck.checker import Checker
    from deckcheck.decks.ydk import read_ydk

    pool = _fresh()
    parsed: list[str] = []
    parse = builtin.parse_line

    def spy(line: str, where: str = CARDS_FILE) -> Card:
        parsed.append(line)
        return parse(line, where)

    monkeypatch.setattr(builtin, "parse_line", spy)
    deck = read_ydk((EXAMPLES / "tcg-illegal.ydk").read_bytes(), "tcg-illegal.ydk")
    report = Checker("tcg", "2026-06-01", pool=pool).check(deck)
    assert report.violations and parsed == []
    card = pool.get(89631139)
    assert card is not None
    line = pool._line(89631139)
    assert line is not None
    full = parse(line.decode("utf-8"))
    assert [getattr(card, f) for f in ROW_FIELDS] == [getattr(full, f) for f in ROW_FIELDS]
    # the copy-limit key is set as the card is built (not worked out on first read)
    assert object.__getattribute__(card, "_rule_key") == full.rule_key
    assert card.rule_key == full.rule_key and parsed == []
    assert card.level == 8 and card.atk == 3000 and len(parsed) == 1  # filled from its line
    assert card.names == full.names and card.text == full.text and len(parsed) == 1
    fresh = pool.get(46986414)
    assert fresh is not None and fresh == parse(pool._line(46986414).decode("utf-8"))  # type: ignore[union-attr]
    other = _fresh().get(14558127)
    for copied in (pickle.loads(pickle.dumps(other)), copy.deepcopy(_fresh().get(14558127))):
        assert copied == other and copied.names == other.names  # type: ignore[union-attr]
    every = [line for line in (PACKAGE / CARDS_FILE).read_text("utf-8").splitlines()
             if line and line[0] != "#"]
    from deckcheck.cards.compact import card_from_row

    for text in every[::23]:
        made = card_from_row(int(text.split("\t")[0]), builtin.line_facts(text), pool)
        assert made == parse(text)


def test_the_pool_maps_its_files_and_opens_ids_and_names_only_when_needed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`builtin_pool()` maps the cards file (no 7 MB read at start-up); the facts file is
    opened for the first look-up, the ids file for the first passcode that is no card's own,
    the names file for the first name."""
    from deckcheck.cards import builtin

    codes = (89631139, 14558127, 55144522, 1)  # own passcodes, then one no card has
    mapped = _fresh()
    expected = [mapped.get(pc) for pc in codes]
    opened: list[str] = []
    real = builtin._package_map

    def spy(name: str) -> builtin.Buffer:
        opened.append(name)
        return real(name)

    monkeypatch.setattr(builtin, "_package_map", spy)
    builtin.builtin_pool.cache_clear()
    try:
        pool = builtin.builtin_pool()
        assert opened == [CARDS_FILE]
        assert [pool.get(pc) for pc in codes] == expected
        assert opened == [CARDS_FILE, FACTS_FILE, "builtin_ids.tsv"]
        assert [c.passcode for c in pool.find_name("Pot of Greed")] == [55144522]
        assert opened == [CARDS_FILE, FACTS_FILE, "builtin_ids.tsv", "builtin_names.tsv"]
    finally:
        builtin.builtin_pool.cache_clear()


def test_name_bisection_finds_what_the_full_parse_does() -> None:
    memory = _fresh()._all()
    lazy = _fresh()
    keys = list(memory._names)
    assert len(keys) > 50_000
    for key in keys:
        assert lazy.find_name(key) == memory.find_name(key), key
    for miss in ("", "   ", "no such card at all", "zzzzzz", "!!!"):
        assert lazy.find_name(miss) == memory.find_name(miss) == []
    assert lazy.find_name("Ash Blossom and Joyous Spring")[0].passcode == 14558127
    assert lazy._memory is None


def test_builtin_cards_returns_a_fresh_list() -> None:
    cards = builtin_cards()
    cards.clear()
    assert builtin_cards()


def test_passcodes_are_unique_across_alternate_artworks() -> None:
    seen = Counter(pc for card in builtin_cards() for pc in card.all_passcodes)
    assert [pc for pc, n in seen.items() if n > 1] == []


def test_file_is_text_with_facts_only() -> None:
    text = (PACKAGE / CARDS_FILE).read_text(encoding="utf-8")
    assert text.startswith("#")
    assert "# " + "\t".join(COLUMNS) in text
    for line in text.splitlines():
        if line and not line.startswith("#"):
            assert len(line.split("\t")) == len(COLUMNS)
            assert len(line) < 400  # no card texts


def test_a_facts_file_that_does_not_fit_is_left_for_the_cards_lines(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`builtin_facts.tsv` is the cards file's facts, line for line (`facts_text`). A facts
    file that does not fit the cards file (a line missing, or two lines swapped) gives no
    other card: a passcode it misses while bisecting is asked of the cards file, and through
    the index it is left when its lines do not follow the cards file's, or at the first line
    that is not where the index says (the cards lines are parsed)."""
    from deckcheck.cards import builtin

    data = (PACKAGE / CARDS_FILE).read_bytes()
    shipped = (PACKAGE / FACTS_FILE).read_text(encoding="utf-8")
    assert shipped == facts_text(data.decode("utf-8"))
    memory = _fresh()._all()
    codes = [89631139, 14558127, 46986414, 55144522, 27204311, 5, 14558128]
    head, _, body = shipped.partition("\n# passcode\tfacts\n")
    lines = body.splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith("46986414\t"))
    swapped = lines[:i] + [lines[i + 1], lines[i]] + lines[i + 2:]  # two lines swapped
    last = int(lines[-1].split("\t")[0])
    swapped_at = [int(lines[i].split("\t")[0]), int(lines[i + 1].split("\t")[0])]
    for name, text in (("short.tsv", "\n".join(lines[:-1])), ("swapped.tsv", "\n".join(swapped))):
        (tmp_path / name).write_text(f"{head}\n# passcode\tfacts\n{text}\n", encoding="utf-8")
        # by bisection (a deck's first cards): a card the facts file misses is asked of the
        # cards file
        pool = BuiltinPool(data, index=builtin.INDEX_FILE, facts=str(tmp_path / name))
        asked = [last, *swapped_at, *codes]
        assert [pool.get(pc) for pc in asked] == [memory.get(pc) for pc in asked], name
        assert None not in [pool.get(pc) for pc in (last, *swapped_at)]
        # through the index (read at once)
        monkeypatch.setattr(builtin, "_SHIPPED_BISECTIONS", 0)
        pool = BuiltinPool(data, index=builtin.INDEX_FILE, facts=str(tmp_path / name))
        assert [pool.get(pc) for pc in asked] == [memory.get(pc) for pc in asked], name
        assert pool._facts_file is None, name
        monkeypatch.undo()
    # the shipped one fits: every card read comes from it, and equals the full parse
    pool = BuiltinPool(data, index=builtin.INDEX_FILE, facts=FACTS_FILE)
    parsed: list[str] = []
    monkeypatch.setattr(builtin, "parse_line", lambda line, where="": parsed.append(line))
    cards = [pool.get(pc) for pc in codes]
    assert parsed == [] and pool._facts_file == FACTS_FILE
    monkeypatch.undo()
    assert cards == [memory.get(pc) for pc in codes]


def test_the_shipped_index_is_the_cards_files_and_a_stale_one_is_not_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`builtin_cards.idx` is the index of the shipped cards and facts files (`index_bytes`);
    the pool reads it instead of indexing the files itself. An index that does not fit the
    cards file (another length, or lines elsewhere) is not used: the pool makes its own."""
    from deckcheck.cards import builtin

    data = (PACKAGE / CARDS_FILE).read_bytes()
    facts = (PACKAGE / FACTS_FILE).read_bytes()
    shipped = (PACKAGE / builtin.INDEX_FILE).read_bytes()
    assert shipped == builtin.index_bytes(data, facts)
    made = builtin.line_index(data, builtin._body(data))
    made_facts = builtin.line_index(facts, builtin._body(facts), FACTS_FILE)
    assert made_facts[0] == made[0]  # the facts file's lines follow the cards file's
    assert builtin.read_index(shipped, data, builtin._body(data)) == (*made, None)
    assert builtin.read_index(shipped, data, builtin._body(data),
                              (facts, builtin._body(facts))) == (*made, made_facts[1])
    pool = builtin_pool()
    assert pool._index() == made and pool._fact_starts == made_facts[1]
    # the pool over the package's files reads the index file: it does not index the file
    made_here: list[int] = []
    real = builtin.line_index

    def spy(data: builtin.Buffer, start: int, name: str = CARDS_FILE) -> tuple[Any, Any]:
        made_here.append(start)
        return real(data, start, name)

    monkeypatch.setattr(builtin, "line_index", spy)
    assert BuiltinPool(data, index=builtin.INDEX_FILE)._index() == made and made_here == []
    # such a pool reads it after `_SHIPPED_BISECTIONS` finds (reading costs ~30 bisections)
    monkeypatch.setattr(builtin, "_SHIPPED_BISECTIONS", 2)
    reads = BuiltinPool(data, index=builtin.INDEX_FILE)
    assert [reads._line(pc) is not None for pc in made[0][:2]] == [True, True]
    assert reads._line_index is None
    assert reads._line(made[0][2]) and reads._index_read and made_here == []
    # a cards file one line shorter (the last card gone): the shipped index does not fit it
    shorter = data[:data.rstrip(b"\n").rfind(b"\n") + 1]
    assert builtin.read_index(shipped, shorter, builtin._body(shorter)) is None
    # the same length, a line moved: the first, middle or last line is not where it says
    codes, starts = made
    moved = bytearray(shipped)
    at = 8 * (2 + 2 * len(codes) - 1)  # the last card line's start
    moved[at:at + 8] = (starts[-1] + 1).to_bytes(8, "little")
    assert builtin.read_index(bytes(moved), data, builtin._body(data)) is None
    # a pool over the package's cards whose index file does not fit makes its own
    (tmp_path / "stale.idx").write_bytes(bytes(moved))
    stale = BuiltinPool(data, index=str(tmp_path / "stale.idx"))
    assert stale._index() == made and len(made_here) == 1
    assert BuiltinPool(data, index=str(tmp_path / "missing.idx"))._index() == made
    assert len(made_here) == 2
    # an index that passes those looks but is wrong between them (two lines swapped in it):
    # the first line found where it does not start is seen, and the pool makes its own
    i = len(codes) // 4
    swapped = array("q", [len(data), len(facts)]) + codes + starts + made_facts[1]
    swapped[2 + len(codes) + i], swapped[3 + len(codes) + i] = starts[i + 1], starts[i]
    (tmp_path / "swapped.idx").write_bytes(swapped.tobytes())
    pool = BuiltinPool(data, index=str(tmp_path / "swapped.idx"))
    assert pool._index() != made and len(made_here) == 2  # read: it fits the three looks
    assert pool._line(codes[i]).startswith(b"%d\t" % codes[i])  # type: ignore[union-attr]
    assert pool._line_index == made and len(made_here) == 3
    body = builtin._body(data)
    with pytest.raises(BuiltinDataError, match="reinstall"):  # a blank line among the cards
        builtin.line_index(data[:body] + b"\n" + data[body:], body)


def test_bad_lines_raise_one_clear_error() -> None:
    good = "\t".join(["1", "", "", "monster", "normal", "X", "", "", "", "", "", "", "4", "",
                      "LIGHT", "Dragon", "1/1", "", "", "", ""])
    assert parse_line(good).level == 4
    with pytest.raises(BuiltinDataError, match=r"t\.tsv: 3 columns"):
        parse_line("1\t2\t3", "t.tsv")
    with pytest.raises(BuiltinDataError, match="regenerate"):
        parse_line(good.replace("normal", "monster"))
    with pytest.raises(BuiltinDataError, match="regenerate"):
        parse_line(good.replace("\t4\t", "\tfour\t"))


def test_html_escapes_in_names_are_decoded() -> None:
    names = {c.name for c in builtin_cards()}
    assert "The Fallen & The Virtuous" in names
    assert not [n for n in names if re.search(r"&(amp|quot|lt|gt|#\d+);", n)]


def test_regenerated_from_the_real_data_is_the_same(shared_data: Path) -> None:
    """The files in the package are exactly what deckcheck's importers make of the data."""
    from deckcheck.cards.build_builtin import read_all, render

    cards, ids, names = render(read_all(shared_data / "cards"))
    assert (PACKAGE / CARDS_FILE).read_text(encoding="utf-8") == cards
    assert (PACKAGE / "builtin_ids.tsv").read_text(encoding="utf-8") == ids
    assert (PACKAGE / "builtin_names.tsv").read_text(encoding="utf-8") == names
    assert (PACKAGE / FACTS_FILE).read_text(encoding="utf-8") == facts_text(cards)
    assert (PACKAGE / "builtin_cards.idx").read_bytes() == \
        index_bytes(cards.encode(), facts_text(cards).encode())


# --------------------------------------------------------------------------- structure


def _official() -> list[Card]:
    return [c for c in builtin_cards() if not c.scopes and c.passcode < 100_000_000
            and c.konami_id is not None]


def test_card_structure_follows_frame() -> None:
    for card in _official():
        _structure(card)


def _structure(card: Card) -> None:
    frame = card.frame
    if frame is Frame.TOKEN or frame is Frame.SKILL:
        assert card.deck is None
    elif frame.is_extra:
        assert card.deck == "extra"
    else:
        assert card.deck == "main"
    if card.kind is Kind.MONSTER:
        assert card.attribute in {"LIGHT", "DARK", "EARTH", "WATER", "FIRE", "WIND", "DIVINE"}, \
            card.name
        assert (card.rank is not None) == (frame in (Frame.XYZ, Frame.XYZ_PENDULUM))
        assert (card.link_rating is not None) == (frame is Frame.LINK)
        assert (card.level is not None) == (
            frame not in (Frame.XYZ, Frame.XYZ_PENDULUM, Frame.LINK))
        assert (card.scale is not None) == frame.is_pendulum
    elif card.kind in (Kind.SPELL, Kind.TRAP):
        assert card.level is card.attribute is card.atk is card.scale is None
        allowed = {"Normal", "Quick-Play", "Continuous", "Equip", "Field", "Ritual", "Counter"}
        assert card.race in allowed
        assert card.race != "Counter" or card.kind is Kind.TRAP
    if card.kind is Kind.SKILL:
        assert {"speed", "skill"} <= card.scopes
    if card.cannot_normal_summon:
        assert card.kind is Kind.MONSTER


def test_rule_names_resolve_to_cards_in_the_set() -> None:
    pool = builtin_pool()
    for card in _official():
        owners = pool.find_name(card.rule_name)
        assert any(o.name == card.rule_name for o in owners), card.name
        assert card in pool.with_rule_name(card.rule_name)


@pytest.mark.parametrize(("rule_name", "members"), [
    ("Harpie Lady", {76812113, 91932350, 27927359, 54415063, 80316585}),
    ("Umi", {22702055, 295517, 26534688, 2819435, 34103656}),
    ("Polymerization", {24094653, 74335036}),
    ("Hungry Burger", {30243636, 28306253}),
    ("Water Dragon", {85066822, 82616239}),
    ("Supreme King Z-ARC", {13331639, 6218704}),
    ("Neo-Spacian Aqua Dolphin", {17955766, 78734254}),
])
def test_same_name_groups(rule_name: str, members: set[int]) -> None:
    official = {c.passcode for c in builtin_pool().with_rule_name(rule_name)
                if c.passcode < 100_000_000}  # Rush Duel cards share some names
    assert official == members


def test_archetype_members_keep_their_own_rule_name() -> None:
    pool = builtin_pool()
    magical = pool.find_name("Gaia the Magical Knight")[0]
    assert magical.rule_name == "Gaia the Magical Knight"
    for name in ("Aileron", "Armored Shark", "Harpie Lady Sisters"):
        card = pool.find_name(name)[0]
        assert card.rule_name == card.name


@pytest.mark.parametrize("query", [14558127, 14558128, "灰流うらら", "灰流丽", "灰流麗",
                                   "하루 우라라", "ash blossom & joyous spring",
                                   "Ash Blossom and Joyous Spring"])
def test_ash_blossom_is_found(query: int | str) -> None:
    pool = builtin_pool()
    found = [pool.get(query)] if isinstance(query, int) else pool.find_name(query)
    assert [c.passcode for c in found if c] == [14558127]


def test_summoning_facts() -> None:
    pool = builtin_pool()

    def card(name: str) -> Card:
        return pool.find_name(name)[0]

    assert card("Blue-Eyes White Dragon").level == 8
    assert card("Dark Magician").level == 7
    assert card("Summoned Skull").level == 6
    for name in ("Chaos Emperor Dragon - Envoy of the End",
                 "Black Luster Soldier - Envoy of the Beginning", "Water Dragon"):
        assert card(name).cannot_normal_summon, name
    for name in ("Cyber Dragon", "Blue-Eyes White Dragon", "Nibiru, the Primal Being", "Sangan"):
        assert not card(name).cannot_normal_summon, name
    assert card("Sheep Token").deck is None
    assert card("It's My Lucky Day!").kind is Kind.SKILL


# --------------------------------------------------------------------------- example decks


def _ydk(path: Path) -> dict[str, list[int]]:
    parts: dict[str, list[int]] = {"main": [], "extra": [], "side": []}
    section = "main"
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line == "#main":
            section = "main"
        elif line == "#extra":
            section = "extra"
        elif line == "!side":
            section = "side"
        elif line and not line.startswith("#"):
            parts[section].append(int(line))
    return parts


def _text(path: Path) -> dict[str, list[int]]:
    pool = builtin_pool()
    parts: dict[str, list[int]] = {"main": [], "extra": [], "side": []}
    section = "main"
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line:
            continue
        if line.lower().rstrip(":").split()[0] in ("main", "extra", "side"):
            section = line.lower().rstrip(":").split()[0]
            continue
        count, _, name = line.partition(" ")
        found = pool.find_name(name)
        assert len(found) == 1, line
        parts[section] += [found[0].passcode] * int(count)
    return parts


def _lflist(path: Path) -> dict[int, int]:
    limits: dict[int, int] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("!") and limits:
            break  # only the first list of the file
        m = re.match(r"^(\d+)\s+(\d+)", line)
        if m:
            limits[int(m.group(1))] = int(m.group(2))
    return limits


def test_examples_listed_in_readme() -> None:
    readme = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    for path in EXAMPLES.iterdir():
        if path.suffix in (".ydk", ".txt"):
            assert path.name in readme


@pytest.mark.parametrize("name", ["tcg-legal.ydk", "tcg-illegal.ydk"])
def test_example_ydk_uses_only_builtin_cards(name: str) -> None:
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    assert text.startswith("#created by deckcheck\n#main\n")
    assert "#extra" in text and "!side" in text
    pool = builtin_pool()
    for section, passcodes in _ydk(EXAMPLES / name).items():
        for pc in passcodes:
            assert pool.get(pc) is not None, (name, section, pc)


def test_legal_example_is_legal_by_construction() -> None:
    pool = builtin_pool()
    deck = _ydk(EXAMPLES / "tcg-legal.ydk")
    assert [len(deck["main"]), len(deck["extra"]), len(deck["side"])] == [40, 15, 15]
    for section in ("main", "extra", "side"):
        for pc in deck[section]:
            card = pool.get(pc)
            assert card is not None
            assert card.deck == ("extra" if section == "extra" else "main") or (
                section == "side" and card.deck is not None), card.name
            assert not card.scopes & {"speed", "skill", "ocg_only", "anime", "rush"}
    counts = Counter(pool.get(pc).rule_name for s in deck.values() for pc in s)  # type: ignore[union-attr]
    assert max(counts.values()) <= 3


def test_legal_text_matches_legal_ydk() -> None:
    pool = builtin_pool()
    ydk = _ydk(EXAMPLES / "tcg-legal.ydk")
    text = _text(EXAMPLES / "tcg-legal.txt")
    for section in ydk:
        official = sorted(pool.get(pc).passcode for pc in ydk[section])  # type: ignore[union-attr]
        assert sorted(text[section]) == official, section


def test_illegal_example_has_its_problems() -> None:
    pool = builtin_pool()
    deck = _ydk(EXAMPLES / "tcg-illegal.ydk")
    assert len(deck["main"]) == 39
    cards = {s: [pool.get(pc) for pc in pcs] for s, pcs in deck.items()}
    everything = [c for s in cards.values() for c in s]
    harpies = [c for c in everything if c and c.rule_name == "Harpie Lady"]
    assert len(harpies) == 4 and len({c.name for c in harpies}) >= 2
    assert any(c and c.deck == "extra" for c in cards["main"])
    assert any(c and c.kind is Kind.TOKEN for c in everything)
    assert 55144522 in deck["main"]  # Pot of Greed


def test_examples_respect_the_current_tcg_list(shared_data: Path) -> None:
    limits = _lflist(shared_data / "banlists" / "lflists" / "0TCG.lflist.conf")
    pool = builtin_pool()
    deck = _ydk(EXAMPLES / "tcg-legal.ydk")
    per_rule: Counter[str] = Counter()
    limit_of: dict[str, int] = {}
    for pc in (pc for s in deck.values() for pc in s):
        card = pool.get(pc)
        assert card is not None
        per_rule[card.rule_name] += 1
        for p in card.all_passcodes:
            if p in limits:
                limit_of[card.rule_name] = min(limit_of.get(card.rule_name, 3), limits[p])
    over = {n: k for n, k in per_rule.items() if k > limit_of.get(n, 3)}
    assert over == {}
    illegal = _ydk(EXAMPLES / "tcg-illegal.ydk")
    assert any(limits.get(pc) == 0 for s in illegal.values() for pc in s)


def test_the_readme_tournament_list_is_legal_at_its_date_and_not_before() -> None:
    """The real March 2022 list checks legal as of 2022-03-31 on the built-in pool alone; a
    year earlier some of its cards were not yet printed (DC402: the pool has dates)."""
    import deckcheck

    pool = builtin_pool()
    deck = deckcheck.read_deck(str(EXAMPLES / "csm-2022-03-dinosaur.ydk"), pool)
    assert deckcheck.check(deck, "tcg", "2022-03-31", pool=pool).verdict == "legal"
    early = deckcheck.check(deck, "tcg", "2021-03-31", pool=pool)
    assert early.verdict == "illegal" and "DC402" in {v.code for v in early.violations}


# --------------------------------------------------------------------------- Master Duel

K9 = [26585784, 27308231, 28642461, 47960073, 53792930, 55031170, 91025875, 92248362]
VANQUISH_SOUL = [9091064, 27345070, 29280200, 29302858, 35550352, 53330789, 55688914,
                 60883493]
RYZEAL = [8633261, 34022970, 35844557, 61116514, 72238166, 84433129, 33787730, 60394026]
EXTRA = [27420823, 90303227, 7511613, 54919528]  # K9 and Ryzeal Xyz


def _write_ydk(tmp_path: Path, main: list[int], extra: tuple[int, ...] | list[int] = ()) -> str:
    path = tmp_path / "md.ydk"
    path.write_text("#main\n" + "".join(f"{pc}\n" for pc in main) + "#extra\n"
                    + "".join(f"{pc}\n" for pc in extra) + "!side\n", encoding="utf-8")
    return str(path)


def test_a_2026_master_duel_deck_of_2025_cards_is_in_the_game(tmp_path: Path) -> None:
    """K9, Vanquish Soul and Ryzeal cards (many printed 2025, shown in Master Duel by YAML
    Yugi's rarity, not by YGOJSON, which ends 2025-11): no unknown card, nothing "not yet
    released", nothing "not in Master Duel's card pool" in a deck dated 2026-02."""
    import deckcheck

    deck = _write_ydk(tmp_path, K9 * 2 + VANQUISH_SOUL * 2 + RYZEAL, EXTRA)
    result = deckcheck.check_many([deck], format="master-duel", date="2026-02-15",
                                  pool=builtin_pool())
    codes = {v.code for r in result.reports for v in r.violations}
    assert codes & {"DC401", "DC402", "DC403"} == set()


def test_a_card_not_in_master_duel_past_the_data_exits_2_naming_it(tmp_path: Path) -> None:
    import deckcheck

    bait_doll = 7165085  # not in Master Duel as of the data (YAML Yugi, YGOJSON)
    assert builtin_pool().get(bait_doll).master_duel is False  # type: ignore[union-attr]
    deck = _write_ydk(tmp_path, [bait_doll] + K9 * 2 + VANQUISH_SOUL * 2 + RYZEAL)
    md_end = builtin_pool().info.covers["md"]
    after = deckcheck.check_many([deck], format="master-duel", date=md_end + dt.timedelta(40),
                                 pool=builtin_pool())
    [report] = after.reports
    assert after.exit_code == 2 and report.verdict == "unchecked"
    assert any("Bait Doll is not in Master Duel's card pool" in p and md_end.isoformat() in p
               for p in report.open_points)
    inside = deckcheck.check_many([deck], format="master-duel", date=md_end, pool=builtin_pool())
    assert "DC403" in {v.code for v in inside.reports[0].violations}


def test_brute_enforcer_in_a_2022_master_duel_deck_is_released(tmp_path: Path) -> None:
    """Brute Enforcer, printed 2022-05 and first in a dated Master Duel set of 2023-10, was used
    in Master Duel decks from 2022-10: set dates mean "in the game by", never "not before"."""
    import deckcheck

    brute = 63503850
    deck = _write_ydk(tmp_path, [14558127] * 3, [brute])
    result = deckcheck.check_many([deck], format="master-duel", date="2022-10-11",
                                  pool=builtin_pool())
    codes = {v.code for r in result.reports for v in r.violations}
    assert builtin_pool().get(brute) is not None
    assert "DC402" not in codes and "DC401" not in codes


@pytest.mark.parametrize("typo", ["Ash Blosom", "Blue Eyes Whyte Dragon", "Efect Veiler",
                                  "pot of greeed", "Harpy Lady", "灰流うらら", "zzzz"])
def test_suggestions_without_the_full_parse_are_the_full_pools(typo: str) -> None:
    lazy, full = _fresh(), _fresh()
    assert lazy.suggest(typo) == full._all().suggest(typo)
    assert lazy.suggest(typo, 5) == full._all().suggest(typo, 5)
