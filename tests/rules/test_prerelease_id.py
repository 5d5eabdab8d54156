from __future__ import annotations

from rulekit import NEW, PRERELEASE_ID, codes, deck, only, run


def test_official_passcode_passes() -> None:
    assert "DC404" not in codes(run(deck([(NEW, 1)])))


def test_prerelease_id_is_a_warning_and_the_card_is_still_checked() -> None:
    r = run(deck([(PRERELEASE_ID, 4)]))
    v = only(r, "DC404")
    assert (v.severity, v.passcode, v.card) == ("warning", PRERELEASE_ID, "Test New Card")
    assert v.message.startswith(f"{PRERELEASE_ID} is a prerelease id of Test New Card; write its "
                                f"official passcode {NEW.passcode}")
    assert only(r, "DC201").count == 4


def test_warning_alone_is_legal_unless_strict() -> None:
    d = deck([(PRERELEASE_ID, 1)])
    assert run(d).verdict == "legal"
    assert run(d, strict=True).verdict == "illegal"
