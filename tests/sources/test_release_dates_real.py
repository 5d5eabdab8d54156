"""Release dates, Master Duel and unofficial ids on a pool of every real source (skipped
without ../shared/data)."""

from __future__ import annotations

import datetime as dt
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from deckcheck.checker import check
from deckcheck.decks.model import Deck, Entry, Location
from deckcheck.formats import load_format
from deckcheck.formats.model import Format

CARDS = Path(__file__).resolve().parents[3] / "shared" / "data" / "cards"
SP_LITTLE_KNIGHT = 29301450
ASH = 14558127


def _latest(fmt: Format) -> Any:
    return fmt.newest_list()


def _deck(main: list[int], extra: list[int] = ()) -> Deck:  # type: ignore[assignment]
    return Deck(name="deck", source="deck.ydk",
                main=[Entry(passcode=pc, written=str(pc), location=Location(source="deck.ydk",
                                                                             line=i + 2))
                      for i, pc in enumerate(main)],
                extra=[Entry(passcode=pc, written=str(pc)) for pc in extra])


def test_sp_little_knight_is_not_released_in_2018(full_store: Any) -> None:
    tcg = load_format("tcg")
    r = check(_deck([ASH] * 3, [SP_LITTLE_KNIGHT]), tcg, "2018-06-01", pool=full_store,
              banlist=_latest(tcg), select=["DC402"])
    [v] = r.violations
    assert v.message == ("S:P Little Knight is not released in the TCG until 2023-10-19 "
                         "(checked as of 2018-06-01).")
    later = check(_deck([ASH] * 3, [SP_LITTLE_KNIGHT]), tcg, "2023-10-19", pool=full_store,
                  banlist=_latest(tcg), select=["DC402"])
    assert later.violations == []


def test_most_cards_have_tcg_and_ocg_dates(full_store: Any) -> None:
    cards = [c for c in full_store if c.passcode < 100_000_000 and c.kind.value != "token"]
    tcg = sum(1 for c in cards if "tcg" in c.released)
    ocg = sum(1 for c in cards if "ocg" in c.released)
    assert tcg > 13_000 and ocg > 13_000
    assert full_store.get(SP_LITTLE_KNIGHT).released["ocg"] == dt.date(2023, 7, 22)


def test_unprinted_big_ids_are_not_legal_anywhere_official(full_store: Any) -> None:
    """The 51 YGOPRODeck cards with ids >= 100,000,000 and no printing (Ojamandala, the
    101402xxx prerelease ids…) were legal in the TCG and the OCG: each is now refused (DC403)
    or is the official card under its prerelease id (DC404)."""
    with zipfile.ZipFile(CARDS / "ygoprodeck-cardinfo.zip") as zf:
        dump = json.loads(zf.read("cardinfo.json"))["data"]
    ids = [c["id"] for c in dump if c["id"] >= 100_000_000 and not c.get("card_sets")]
    assert len(ids) == 51
    for fid in ("tcg", "ocg"):
        fmt = load_format(fid)
        for pc in ids:
            r = check(_deck([pc]), fmt, "2026-11-22", pool=full_store, banlist=_latest(fmt),
                      select=["DC4"])
            found = {v.code for v in r.violations}
            assert found & {"DC403", "DC404"}, (fid, pc, [v.message for v in r.violations])
            assert "DC401" not in found
    ojamandala = check(_deck([100000101]), load_format("tcg"), "2026-11-22", pool=full_store,
                       banlist=_latest(load_format("tcg")), select=["DC403"])
    assert [v.message for v in ojamandala.violations] == [
        "Ojamandala is an anime or manga card, not legal in TCG Advanced."]


def test_prerelease_id_of_a_card_known_by_its_passcode_is_that_card(full_store: Any) -> None:
    # YGOPRODeck lists Adamancipator Conductor under 101402024; YAML Yugi has its passcode
    card = full_store.get(101402024)
    assert card is not None and card.passcode == 24925387
    r = check(_deck([101402024]), load_format("ocg"), "2026-11-22", pool=full_store,
              banlist=_latest(load_format("ocg")), select=["DC404"])
    assert [v.message for v in r.violations] == [
        "101402024 is a prerelease id of Adamancipator Conductor; write its official passcode "
        "24925387."]


def test_master_duel_pool_from_the_card_data(full_store: Any) -> None:
    md = load_format("master-duel").model_copy(update={"region": "md", "history": []})
    assert full_store.get(ASH).master_duel is True
    absent = next(c for c in full_store if c.master_duel is False and not c.scopes
                  and c.deck == "main")
    r = check(_deck([ASH] * 3 + [absent.passcode]), md, "2026-11-22", pool=full_store,
              banlist=None, select=["DC403"])
    assert [v.message for v in r.violations] == [
        f"{absent.name} is not in Master Duel's card pool, not legal in Master Duel."]
    # Master Duel had no list before its launch: the check is given the first one.
    early = check(_deck([ASH] * 3), md, "2021-12-01", pool=full_store, banlist=md.first_list(),
                  select=["DC402"])
    assert [v.message for v in early.violations] == [
        "Ash Blossom & Joyous Spring is not released in Master Duel until 2022-01-19 (checked "
        "as of 2021-12-01) (also at lines 3 and 4)."]


@pytest.mark.parametrize("region", ["tcg", "ocg"])
def test_undated_cards_are_counted(full_store: Any, region: str) -> None:
    undated = next(c for c in full_store if c.passcode < 100_000_000 and not c.scopes
                   and region not in c.released and c.deck == "main")
    fmt = load_format(region)
    r = check(_deck([ASH, undated.passcode]), fmt, "2026-11-22", pool=full_store,
              banlist=_latest(fmt), select=["DC402"])
    assert f"1 card has no known {region.upper()} release date; not checked." in r.notices


def test_search_on_real_data(full_store: Any) -> None:
    assert full_store.search("ash", 20)[0].passcode == ASH
    assert [c.passcode for c in full_store.search("灰流", 20)] == [ASH]
    hits = [c.passcode for c in full_store.search("dragon", 200)]
    assert len(hits) == len(set(hits)) == 200


def test_shared_names_resolve_to_the_card_players_mean(full_store: Any, tmp_path: Path) -> None:
    """Names an official card shares with a Rush Duel, anime or prerelease-id card (issue 12:
    "Black Luster Soldier", Mind Scan, Reversal Box, Quick Summon…) resolve to the official
    card."""
    from deckcheck.decks.files import read_deck

    path = tmp_path / "names.txt"
    path.write_text("1 Black Luster Soldier\n1 Mind Scan\n1 Reversal Box\n1 Quick Summon\n"
                    "1 Harpie Lady Sisters\n1 Learning Elf\n", encoding="utf-8")
    deck = read_deck(path, full_store)
    assert deck.problems == []
    got = {full_store.get(e.passcode).name: e.passcode for e in deck.main}
    assert got == {"Black Luster Soldier": 5405694, "Mind Scan": 34298391,
                   "Reversal Box": 2606417, "Quick Summon": 10086952,
                   "Harpie Lady Sisters": 12206212, "Learning Elf": 32126000}


def test_check_command_names_the_card_and_its_first_tcg_release(full_store: Any,
                                                                 tmp_path: Path) -> None:
    from click.testing import CliRunner

    from deckcheck.cli.main import cli

    deck = tmp_path / "knight.ydk"
    main = [ASH] * 3 + [c.passcode for c in list(full_store)[:300]
                        if c.deck == "main" and not c.scopes and "tcg" in c.released
                        and c.released["tcg"] < dt.date(2010, 1, 1)][:37]
    deck.write_text("#main\n" + "\n".join(map(str, main)) + f"\n#extra\n{SP_LITTLE_KNIGHT}\n"
                    "!side\n", encoding="utf-8")
    listed = _latest(load_format("tcg")).name
    result = CliRunner().invoke(cli, ["--db", str(full_store.path), "check", "--date",
                                      "2018-06-01", "--banlist", listed, "--select", "DC402",
                                      str(deck)])
    assert result.exit_code == 1, result.output
    assert (f"{deck}:43  DC402 not-yet-released  S:P Little Knight ×1: S:P Little Knight is "
            "not released in the TCG until 2023-10-19 (checked as of 2018-06-01).") \
        in result.stdout


def test_every_mapped_prerelease_id_is_its_official_card(full_store: Any) -> None:
    pairs = json.loads((CARDS / "edopro" / "mappings.json").read_text(encoding="utf-8"))
    known = [(pre, off) for pre, off in pairs["mappings"] if full_store.get(off) is not None]
    assert len(known) >= 1900
    wrong = [(pre, off) for pre, off in known
             if full_store.get(pre).passcode != full_store.get(off).passcode]
    assert wrong == []
