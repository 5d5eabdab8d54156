from __future__ import annotations

import datetime as dt
import functools
import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from deckcheck.errors import FailedDownload, FormatError
from deckcheck.formats import download, find_banlist, load_format, native, verify
from deckcheck.formats import update as upd


def make_source(root: Path) -> Path:
    """A folder laid out like EDOPro's LFLists history plus Konami-id lists."""
    hist = root / "lflists" / "history"
    hist.mkdir(parents=True)
    (hist / "2021.03_TCG.lflist.conf").write_text(
        "!2021.03 TCG\n#Forbidden\n55144522 0 --Pot of Greed\n4280259 0 --Apollousa\n")
    (hist / "2021.03_Traditional.lflist.conf").write_text(
        "!2021.03 Traditional\n#Limited\n55144522 1 --Pot of Greed\n")
    (hist / "Edison.lflist.conf").write_text("!Edison\n$whitelist\n55144522 0 --Pot of Greed\n")
    (hist / "Nodate.lflist.conf").write_text("!Some list\n55144522 0\n")
    (hist / "_index.json").write_text(json.dumps({
        "2021.03 TCG": {"date": "2021-06-30T13:26:17+03:00", "path": "0TCG.lflist.conf"},
        "Edison": {"date": "2025-04-28T22:59:02-04:00", "path": "Edison.lflist.conf"}}))
    tcg = root / "konami-id" / "tcg"
    tcg.mkdir(parents=True)
    (tcg / "2021-03-01.vector.json").write_text(json.dumps(
        {"date": "2021-03-01", "regulation": {"4844": 1}}))  # beats EDOPro's of that day
    (tcg / "2020-12-15.vector.json").write_text(json.dumps(
        {"date": "2020-12-15", "regulation": {"4844": 2, "12950": 1}}))
    (tcg / "current.vector.json").write_text(json.dumps(
        {"date": "2021-03-01", "regulation": {"4844": 1}}))
    (tcg / "2019-01-01.vector.json").write_text(json.dumps(
        {"date": "2019-01-01", "regulation": {"77777": 0}}))
    return root


def test_import_folder(tmp_path: Path, pool, banlists_home: Path) -> None:
    src = make_source(tmp_path / "src")
    # toy lists far smaller than the shipped ones of their days: taken with force=True (the
    # lists in force are kept from worse imports otherwise: tests/formats/test_keep.py)
    report = upd.import_lists(src, pool=pool, force=True)
    assert report.dest == banlists_home
    # Konami's TCG lists count for TCG and, Forbidden as Limited, for Traditional
    assert report.written == {"edison": 1, "tcg": 2, "traditional": 2}
    assert report.replaced == 2  # EDOPro's 2021.03 TCG and Traditional: Konami's win
    assert report.skipped == [
        "Nodate.lflist.conf: 'Some list': no date in its name or in _index.json",
        "konami-id/tcg: 2019-01-01.vector.json: 1 card(s) not in the card pool "
        "(Konami id 77777…)"]
    fmt = load_format("tcg")
    # Konami's file of 2021-03-01 is in force from 2021-03-15, as the shipped list of that
    # file says (dated by YGOJSON's history when the shipped lists were made)
    march = fmt.banlist_at(dt.date(2021, 3, 15))
    assert (march.name, march.limits()) == ("2021.03 TCG", {55144522: 1})
    assert march.source == "Konami-id list tcg/2021-03-01.vector.json, dated 2021-03-15 by " \
        "YGOJSON's tcg history"
    assert fmt.banlist_at(dt.date(2021, 3, 14)).name == "2020.12 TCG"
    assert fmt.banlist_at(dt.date(2021, 1, 1)).name == "2020.12 TCG"
    assert fmt.banlist_at(dt.date(2021, 1, 1)).limits() == {55144522: 2, 14558127: 1}
    trad = load_format("traditional")
    assert trad.banlist_at(dt.date(2021, 1, 1)).limits() == {55144522: 2, 14558127: 1}
    assert load_format("edison").banlist_at().effective == dt.date(2010, 3, 1)
    assert find_banlist("Edison").whitelist


def test_edopro_stays_where_konami_list_cannot_be_read(tmp_path: Path, pool,
                                                       banlists_home: Path) -> None:
    src = make_source(tmp_path / "src")
    (src / "konami-id" / "tcg" / "2021-03-01.vector.json").write_text(json.dumps(
        {"date": "2021-03-01", "regulation": {"88888": 1}}))  # not in the pool: skipped
    (src / "lflists" / "history" / "2021.03_TCG.lflist.conf").write_text(
        "!2021.03.02 TCG\n#Forbidden\n55144522 0 --Pot of Greed\n4280259 0 --Apollousa\n")
    # the toy 2020-12-15 list is far smaller than the shipped one it replaces
    upd.import_lists(src, pool=pool, allow_smaller=True)
    march = load_format("tcg").banlist_at(dt.date(2021, 3, 8))
    assert (march.name, march.effective, march.source) == (
        "2021.03.02 TCG", dt.date(2021, 3, 2), "EDOPro LFLists, 2021.03_TCG.lflist.conf")
    assert march.limits() == {55144522: 0, 4280258: 0}  # alternate artwork folded by the pool


def test_an_edopro_list_does_not_hide_a_shipped_konami_list(tmp_path: Path,
                                                            banlists_home: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "0TCG.lflist.conf").write_text("!2026.05 TCG\n#Forbidden\n55144522 0\n")
    report = upd.import_lists(src)
    assert report.written == {}
    assert report.skipped == ["EDOPro LFLists, 0TCG.lflist.conf: '2026.05 TCG': Konami's own "
                              "list of 2026-05-18 (shipped) wins"]
    assert load_format("tcg").banlist_at(dt.date(2026, 5, 18)).source == \
        "Konami-id list tcg/2026-05-18.vector.json"


def test_month_only_names_without_an_official_list_are_left_out(
        tmp_path: Path, banlists_home: Path) -> None:
    src = make_source(tmp_path / "src")
    (src / "lflists" / "history" / "2021.04_TCG.lflist.conf").write_text("!2021.04 TCG\n1 0\n")
    (src / "lflists" / "history" / "2021.09_TCG.lflist.conf").write_text("!2021.09 TCG\n1 0\n")
    (src / "konami-id" / "tcg" / "2021-07-01.vector.json").write_text(json.dumps(
        {"date": "2021-07-01", "regulation": {"4844": 0}}))
    report = upd.import_lists(src)
    # after Konami's newest list, the 1st of the month is the best day known
    assert find_banlist("2021.09 TCG").effective == dt.date(2021, 9, 1)
    assert "2021.04_TCG.lflist.conf: '2021.04 TCG': no official list that month (tcg), so " \
           "the name is not a date to trust" in report.skipped


def test_undated_list_takes_the_index_day(tmp_path: Path, banlists_home: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "x.lflist.conf").write_text("!Speed\n55144522 0\n!Other\n1 0\n!2014.04 HAT\n1 0\n")
    (src / "_index.json").write_text(json.dumps(
        {"Speed": {"date": "2022-02-09T02:51:26+02:00"}}))
    report = upd.import_lists(src)
    assert report.written == {"speed": 1}
    assert report.skipped == [
        "format hat: 1 list(s): no format file for 'hat' (add hat/format.toml to import them)",
        "x.lflist.conf: 'Other': no date in its name or in _index.json"]
    assert find_banlist("speed", dt.date(2022, 2, 10)).effective == dt.date(2022, 2, 9)


def test_without_a_pool_konami_lists_are_skipped(tmp_path: Path, banlists_home: Path) -> None:
    report = upd.import_lists(make_source(tmp_path / "src"), force=True)  # toy lists
    assert "konami-id/tcg: 3 list(s): no card pool to map Konami ids and names to passcodes" \
        in report.skipped
    # EDOPro's 2021.03 lists yield to Konami's shipped lists of that day
    assert report.written == {"edison": 1}
    assert "EDOPro LFLists, 2021.03_TCG.lflist.conf: '2021.03 TCG': Konami's own list of " \
           "2021-03-15 (shipped) wins" in report.skipped


def test_single_files(tmp_path: Path, banlists_home: Path) -> None:
    info = tmp_path / "cardinfo.json"
    info.write_text(json.dumps({"data": [{"id": 55144522, "name": "Pot of Greed",
                                          "banlist_info": {"ban_tcg": "Forbidden"}}]}))
    report = upd.import_lists(info, date=dt.date(2026, 6, 1), allow_smaller=True)  # 1 card
    assert report.written == {"tcg": 1}
    assert find_banlist("tcg", dt.date(2026, 6, 2)).name == "YGOPRODeck TCG 2026-06-01"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def www(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A folder served on 127.0.0.1, and its URL."""
    root = tmp_path / "www"
    root.mkdir()
    handler = functools.partial(_Quiet, directory=str(root))
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield root, f"http://127.0.0.1:{srv.server_address[1]}/"
    srv.shutdown()
    srv.server_close()


@pytest.fixture
def server(www: tuple[Path, str]) -> str:
    """`www` serving an EDOPro list and a YGOPRODeck answer."""
    root, url = www
    (root / "0TCG.lflist.conf").write_text("!2026.09 TCG\n#Forbidden\n55144522 0 --Pot\n")
    (root / "cardinfo.php").write_text(json.dumps({"data": [
        {"id": 55144522, "name": "Pot of Greed",
         "banlist_info": {"ban_ocg": "Limited", "ban_tcg": "Forbidden"}}]}))
    return url


def test_fetch_downloads_then_imports(server: str, banlists_home: Path) -> None:
    from deckcheck.sources.http import Http

    client = Http(retries=0, sleep=lambda s: None)
    report = download.fetch({"0TCG.lflist.conf": server + "0TCG.lflist.conf",
                             "Gone.lflist.conf": server + "Gone.lflist.conf"}, http=client,
                            allow_smaller=True)  # 1 card where the shipped list has 200
    assert report.written == {"tcg": 1}
    assert len(report.skipped) == 1 and report.skipped[0].startswith("Gone.lflist.conf: ")
    assert find_banlist("2026.09 TCG").limits() == {55144522: 0}
    report = download.fetch({"ygoprodeck-ocg.cardinfo.json": server + "cardinfo.php"},
                            http=client, date=dt.date(2026, 9, 1), allow_smaller=True)
    assert report.written == {"ocg": 1}
    assert find_banlist("ocg", dt.date(2026, 9, 1)).name == "YGOPRODeck OCG 2026-09-01"
    with pytest.raises(FailedDownload, match="No list could be downloaded"):
        download.fetch({"Gone.lflist.conf": server + "Gone.lflist.conf"}, http=client)


def test_a_download_is_checked_for_being_cut_off_only_in_what_would_be_written(
        www: tuple[Path, str], banlists_home: Path) -> None:
    """EDOPro's list of a day whose Konami list is shipped is not written (Konami's wins), so
    it being much smaller than that list (1 card of ~200) does not refuse the update, as
    `import_lists` has it; a small list that would be written still does."""
    root, url = www
    (root / "0TCG.lflist.conf").write_text("!2026.05 TCG\n#Forbidden\n55144522 0\n")
    report = download.fetch({"0TCG.lflist.conf": url + "0TCG.lflist.conf"}, http=_client())
    assert report.written == {}
    assert report.skipped == ["EDOPro LFLists, 0TCG.lflist.conf: '2026.05 TCG': Konami's own "
                              "list of 2026-05-18 (shipped) wins"]
    (root / "0TCG.lflist.conf").write_text("!2026.05 TCG\n#Forbidden\n55144522 0\n"
                                           "!2026.09 TCG\n#Forbidden\n55144522 0\n")
    with pytest.raises(FormatError) as info:
        download.fetch({"0TCG.lflist.conf": url + "0TCG.lflist.conf"}, http=_client())
    assert str(info.value).startswith(f"{url}0TCG.lflist.conf: 2026.09 TCG has 1 Forbidden "
                                      "cards where 2026.05 TCG (2026-05-18) has ")
    assert "so the download looks cut off; no list was changed" in str(info.value)
    assert not (banlists_home / "tcg").exists()


def test_default_urls_are_edopro() -> None:
    assert download.URLS and all(u.startswith("https://raw.githubusercontent.com/ProjectIgnis/LFLists/")
                            for u in download.URLS.values())


# -- verification: format ids, downloads that are not whole lists ---------------------------

ESCAPING = """name = "Escaped"
format = "../../escaped"
effective = 2026-06-01
whitelist = false

[forbidden]
55144522 = "Pot of Greed"
"""


@pytest.mark.parametrize("fid", ["../../escaped", "/tmp/abs", "TCG", "tcg/../ocg", ""])
def test_a_format_that_is_no_format_id_refuses_the_import(tmp_path: Path, banlists_home: Path,
                                                          fid: str) -> None:
    from deckcheck.errors import FormatError

    src = tmp_path / "in" / "list.toml"
    src.parent.mkdir()
    src.write_text(ESCAPING.replace("../../escaped", fid))
    with pytest.raises(FormatError, match="is not a format id"):
        upd.import_lists(src)
    assert not (tmp_path / "escaped").exists() and not banlists_home.exists()


def _client() -> object:
    from deckcheck.sources.http import Http

    return Http(retries=0, sleep=lambda s: None)


def test_a_served_list_cannot_escape_either(www: tuple[Path, str], banlists_home: Path,
                                            tmp_path: Path) -> None:
    from deckcheck.errors import FormatError

    root, url = www
    (root / "evil.toml").write_text(ESCAPING)
    with pytest.raises(FormatError) as info:
        download.fetch({"evil.toml": url + "evil.toml"}, http=_client())
    assert str(info.value) == (
        f"{url}evil.toml: format '../../escaped' is not a format id (lowercase letters, digits "
        "and dashes, like \"tcg\"); fix the list's `format` line; no list was changed.")
    assert not (tmp_path / "escaped").exists() and not banlists_home.exists()


@pytest.mark.parametrize(("name", "body", "says"), [
    ("0TCG.lflist.conf", b"<!DOCTYPE html><html><body>Rate limited</body></html>",
     "it is an HTML page, not a list"),
    ("0TCG.lflist.conf", b"", "the body is empty"),
    ("0TCG.lflist.conf", b"just some words\n", "it holds no list"),
    ("ygoprodeck-tcg.cardinfo.json", b'{"data": [{"id": 1, "na', "it is not valid JSON"),
])
def test_a_download_that_is_not_a_list_is_refused(www: tuple[Path, str], banlists_home: Path,
                                                  name: str, body: bytes, says: str) -> None:
    from deckcheck.errors import FormatError

    root, url = www
    (root / name).write_bytes(body)
    with pytest.raises(FormatError) as info:
        download.fetch({name: url + name}, http=_client())
    assert str(info.value) == f"{url}{name}: {says}; no list was changed." or \
        str(info.value).startswith(f"{url}{name}: {says}")
    assert not banlists_home.exists()


def test_a_cut_off_real_list_is_refused(www: tuple[Path, str], banlists_home: Path,
                                        shared_data: Path) -> None:
    from deckcheck.errors import FormatError

    root, url = www
    # the real list, named for a month after Konami's newest (so not one deckcheck ships)
    text = (shared_data / "banlists" / "lflists" / "0TCG.lflist.conf").read_text().replace(
        "2026.05 TCG", "2026.09 TCG")
    half = text[:len(text) // 2]
    # cut inside a line: the last line is not a list line
    (root / "0TCG.lflist.conf").write_text(half.rsplit("\n", 1)[0] + "\n1234")
    with pytest.raises(FormatError, match="is not a list line"):
        download.fetch({"0TCG.lflist.conf": url + "0TCG.lflist.conf"}, http=_client())
    # cut at a line end: whole lines, but Limited 97 -> 0
    (root / "0TCG.lflist.conf").write_text(half.rsplit("\n", 1)[0] + "\n")
    with pytest.raises(FormatError) as info:
        download.fetch({"0TCG.lflist.conf": url + "0TCG.lflist.conf"}, http=_client())
    assert "so the download looks cut off; no list was changed (pass --allow-smaller" \
        in str(info.value)
    assert "2026.09 TCG has 0 Limited cards where 2026.05 TCG (2026-05-18) has" \
        in str(info.value)
    assert not banlists_home.exists()
    # the whole list goes through; the half one only when the user says so
    (root / "whole.lflist.conf").write_text(text)
    report = download.fetch({"0TCG.lflist.conf": url + "whole.lflist.conf"}, http=_client())
    assert report.written == {"tcg": 1}
    report = download.fetch({"0TCG.lflist.conf": url + "0TCG.lflist.conf"}, http=_client(),
                            allow_smaller=True)
    assert report.written == {"tcg": 1}


def test_offline_fails_in_seconds_with_one_sentence(banlists_home: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """One probe per host, then one sentence: no download is tried, so no retry waits."""
    import socket

    from deckcheck.sources.http import Http

    tried: list[str] = []
    monkeypatch.setattr(Http, "_with_retries", lambda self, url, *a: tried.append(url))
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(FailedDownload) as info:
        download.fetch({"0TCG.lflist.conf": f"http://127.0.0.1:{port}/0TCG.lflist.conf"})
    assert tried == []
    assert str(info.value) == (
        "Cannot reach 127.0.0.1 (no network?); no list was changed — import from a folder "
        "with `deckcheck banlist update --from DIR` when offline.")
    assert not banlists_home.exists()


def test_konami_lists_come_with_their_official_day(www: tuple[Path, str], pool,
                                                   banlists_home: Path) -> None:
    root, url = www
    (root / "tcg").mkdir()
    (root / "tcg" / "upcoming.vector.json").write_text(json.dumps(
        {"date": "2026-09-14", "regulation": {"4844": 0, "12950": 1, "10180": 0}}))
    report = download.fetch(
        {"konami-id/tcg/upcoming.vector.json": url + "tcg/upcoming.vector.json"},
        http=_client(), pool=pool, allow_smaller=True)
    assert report.written == {"tcg": 1, "traditional": 1}
    bl = find_banlist("tcg", dt.date(2026, 9, 14))
    assert (bl.effective, bl.source) == (dt.date(2026, 9, 14),
                                         "Konami-id list tcg/2026-09-14.vector.json")
    assert find_banlist("tcg", dt.date(2026, 9, 13)).effective == dt.date(2026, 5, 18)


def test_default_konami_urls_keep_their_folder() -> None:
    assert all(k.startswith("konami-id/") and v.endswith(k.split("/", 1)[1])
               for k, v in download.KONAMI_URLS.items())


def test_a_list_that_loses_its_groups_is_smaller() -> None:
    from deckcheck.formats.model import Banlist, BanlistEntry, LimitGroup

    day = dt.date(2026, 7, 1)
    cards = [BanlistEntry(passcode=p, limit=3) for p in range(1, 31)]
    old = Banlist(name="Old", format="rush", effective=day, whitelist=True, entries=cards,
                  groups=[LimitGroup(name="Legend Monster", max=1,
                                     passcodes=frozenset(range(1, 13)))])
    new = old.model_copy(update={"name": "New", "groups": []})
    assert verify.shrinks(new, old) == ("New has 0 cards in limit groups where Old (2026-07-01) "
                                     "has 12")
    assert verify.shrinks(old, old) is None



def test_a_cut_file_is_refused_as_a_cut_download_is(tmp_path: Path, banlists_home: Path) -> None:
    """`--from` took a list cut short (at 60% of its lines, or mid-line) that `--url`
    refuses; both now go through `check_whole`."""
    now = load_format("tcg").newest_list()
    assert now is not None
    whole = native.dump_list(now)
    lines = whole.splitlines()
    nxt = tmp_path / "next.toml"
    nxt.write_text("\n".join(lines[: len(lines) * 6 // 10]).replace(
        now.effective.isoformat(), "2099-01-01") + "\n")
    with pytest.raises(FormatError, match="so the file looks cut off; no list was changed"):
        upd.import_lists(nxt)
    assert not (banlists_home / "tcg").exists()
    assert upd.import_lists(nxt, allow_smaller=True).written == {"tcg": 1}


def test_a_file_cut_mid_line_is_refused(tmp_path: Path, banlists_home: Path) -> None:
    cut = tmp_path / "Goat.lflist.conf"
    cut.write_text("#[2005.04 Goat]\n!2005.04 Goat\n#Forbidden\n55144522 0 --Pot of Greed\n"
                   "4031")
    with pytest.raises(FormatError, match=r"its last line \(5\) is not a list line \(the file "
                                          r"looks cut off\)"):
        upd.import_lists(cut)


def test_a_12_mb_list_file_is_refused_without_being_held(tmp_path: Path,
                                                         banlists_home: Path) -> None:
    import tracemalloc

    src = tmp_path / "src"
    src.mkdir()
    huge = src / "0TCG.lflist.conf"
    with huge.open("w", encoding="utf-8") as out:  # ~12 MB, as the hostile file of issue 21
        out.write("!2026.09 TCG\n#Forbidden\n")
        for i in range(288_360):
            out.write(f"{100000000 + i} 0 --Card number {i} of a list cut from nowhere\n")
    assert huge.stat().st_size > 11_000_000
    tracemalloc.start()
    try:
        with pytest.raises(FormatError, match="more than 50,000 list entries"):
            upd.import_lists(src)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # read line by line and stopped at the bound: far below the file's own 12 MB as text
    # (the whole text, its lines and 288,360 entries took ~168 MB RSS before)
    assert peak < 32_000_000, peak
    assert load_format("tcg").banlist_at(dt.date(2026, 9, 30)).source == \
        "Konami-id list tcg/2026-05-18.vector.json"
