"""Rule-level tests of the simulation core: the turn rules (`sim.turnrules`: hand size, draws,
deck-out, hand limit, Normal Summons and tributes) and the duel state that applies them."""

from __future__ import annotations

import pytest
from simkit import expand, extra_monster, fillers, make_deck, make_pool, monster, spell, token

from deckcheck.cards.model import Card, Frame, Kind
from deckcheck.errors import IllegalAction, SimError
from deckcheck.sim.draws import opening_hands, test_draws
from deckcheck.sim.state import DuelState, deal_cards
from deckcheck.sim.turnrules import (
    TurnRules,
    normal_summon_problem,
    summonable_now,
    tributes_needed,
)

FUSION = extra_monster(500, "Big Fusion")
SYNCHRO = extra_monster(501, "Fast Synchro", Frame.SYNCHRO)
MAIN = fillers(40)


def forty_deck() -> DuelState:
    deck = make_deck([(c, 1) for c in MAIN], [(FUSION, 2), (SYNCHRO, 1)])
    main, extra = deal_cards(deck, make_pool(MAIN, FUSION, SYNCHRO))
    return DuelState(main, extra, seed=1)


def test_deal_five_and_extra_deck_apart() -> None:
    state = forty_deck()
    assert len(state.hand) == 5 and len(state.deck) == 35
    assert [c.name for c in state.extra] == ["Big Fusion", "Big Fusion", "Fast Synchro"]
    assert sorted(c.passcode for c in state.hand + state.deck) == sorted(
        c.passcode for c in MAIN)


def test_extra_deck_is_never_drawn_and_deck_out_loses() -> None:
    state = forty_deck()
    state.start_turn()
    seen = list(state.hand)
    while state.lost is None:
        state.end_turn(discard=lambda hand, n: list(hand[:n]))
        seen.extend(state.start_turn())
    assert state.lost.startswith("deck-out") and state.turn == 37  # 35 cards: turns 2..36
    assert all(c.deck == "main" for c in seen) and len(state.extra) == 3
    with pytest.raises(IllegalAction, match="duel is over"):
        state.draw()


def test_seeded_shuffle_is_reproducible() -> None:
    a, b, c = (DuelState(MAIN, seed=s) for s in (42, 42, 43))
    assert a.hand == b.hand and a.deck == b.deck
    assert a.deck + a.hand != c.deck + c.hand


def test_turn_draws_going_first_and_second() -> None:
    rules = TurnRules()
    assert [rules.draws_in(t, False) for t in (1, 2, 3)] == [0, 1, 1]
    assert [rules.draws_in(t, True) for t in (1, 2, 3)] == [1, 1, 1]
    assert rules.cards_by(1, False) == 5 and rules.cards_by(1, True) == 6
    assert rules.cards_by(3, True) == 8
    assert not rules.discards_possible_by(2, True) and rules.discards_possible_by(3, True)
    state = forty_deck()
    assert state.start_turn() == [] and len(state.hand) == 5
    state.end_turn()
    assert len(state.start_turn()) == 1 and len(state.hand) == 6
    second = DuelState(MAIN, seed=3, going_second=True)
    assert len(second.start_turn()) == 1 and len(second.hand) == 6


def test_speed_duel_hand_size_is_four() -> None:
    rules = TurnRules(hand_size=4)
    assert rules.cards_by(1, False) == 4 and rules.cards_by(1, True) == 5
    state = DuelState(fillers(20), seed=1, rules=rules)
    assert len(state.hand) == 4


def test_hand_limit_discards_down_to_six_at_end_phase() -> None:
    state = DuelState(fillers(20), seed=5, going_second=True)
    state.start_turn()
    state.draw(2)               # e.g. a draw spell: 8 cards
    last_two = state.hand[-2:]
    assert state.end_turn() == last_two
    assert len(state.hand) == 6 and state.gy == last_two
    state.start_turn()
    state.draw(1)
    with pytest.raises(IllegalAction, match="exactly 2 must be discarded"):
        state.end_turn(discard=lambda hand, n: [hand[0]])
    with pytest.raises(IllegalAction, match="has not ended"):
        state.start_turn()


def test_six_cards_are_kept_without_discarding() -> None:
    state = DuelState(fillers(20), seed=5, going_second=True)
    state.start_turn()
    assert state.end_turn() == [] and len(state.hand) == 6
    with pytest.raises(IllegalAction, match="No turn is in progress"):
        state.end_turn()


def test_tribute_counts() -> None:
    assert [tributes_needed(monster(1, "m", lv)) for lv in (1, 4, 5, 6, 7, 12)] == \
        [0, 0, 1, 1, 2, 2]
    assert summonable_now(monster(1, "m", 4)) and not summonable_now(monster(2, "b", 8))
    assert summonable_now(monster(2, "b", 8), tributes_available=2)


@pytest.mark.parametrize("card, why", [
    (extra_monster(10, "Fusion X"), "Extra Deck monster"),
    (monster(11, "Ritual X", 6, Frame.RITUAL), "Ritual monster"),
    (monster(12, "Nomi X", 4, cannot_normal_summon=True), "cannot be Normal Summoned"),
    (token(13, "Sheep Token"), "a token"),
    (spell(14, "Pot"), "a spell"),
])
def test_never_normal_summoned(card: Card, why: str) -> None:
    problem = normal_summon_problem(card)
    assert problem is not None and why in problem
    assert not summonable_now(card, tributes_available=2)


def test_deal_errors_are_one_sentence_and_skills_are_set_aside() -> None:
    pool = make_pool(MAIN)
    deck = make_deck([(c, 1) for c in MAIN])
    deck.main.append(deck.main[0].model_copy(update={"passcode": 123}))
    with pytest.raises(SimError, match=r"Passcode 123 \(test.ydk:2\) is not in the card pool"):
        deal_cards(deck, pool)
    tok = token(77, "Sheep Token")
    with pytest.raises(SimError, match="Sheep Token .* is a token card"):
        deal_cards(make_deck([(tok, 1), *[(c, 1) for c in MAIN]]), make_pool(MAIN, tok))
    with pytest.raises(SimError, match="too few to deal"):
        DuelState([MAIN[0]] * 3)
    skill = Card(passcode=78, name="A Skill", kind=Kind.SKILL, frame=Frame.SKILL,
                 rule_name="A Skill")
    main, extra = deal_cards(make_deck([(skill, 1), *[(c, 1) for c in MAIN[:20]]]),
                             make_pool(MAIN, skill))
    assert len(main) == 20 and skill not in main + extra


def test_extra_card_in_main_section_starts_in_extra_deck() -> None:
    deck = make_deck([(FUSION, 1), *[(c, 1) for c in MAIN]])
    main, extra = deal_cards(deck, make_pool(MAIN, FUSION))
    assert extra == [FUSION] and FUSION not in main


def test_opening_hands_contract() -> None:
    deck = make_deck([(c, 1) for c in MAIN], [(FUSION, 1)])
    pool = make_pool(MAIN, FUSION)
    hands = opening_hands(deck, pool, 20, seed=9)
    assert len(hands) == 20 and all(len(h) == 5 for h in hands)
    assert all(c.deck == "main" for h in hands for c in h)
    assert hands == opening_hands(deck, pool, 20, seed=9)
    assert hands != opening_hands(deck, pool, 20, seed=10)
    second = opening_hands(deck, pool, 20, seed=9, going_second=True)
    assert all(len(h) == 6 for h in second)
    assert [h[:5] for h in second] == hands  # the same shuffles, plus the first draw
    speed = opening_hands(deck, pool, 20, seed=9, hand_size=4)
    assert all(len(h) == 4 for h in speed)


def test_test_draws_by_turn() -> None:
    deck = make_deck([(c, 1) for c in MAIN])
    (d,) = test_draws(deck, make_pool(MAIN), 1, seed=4, turns=4)
    assert sorted(d.draws) == [2, 3, 4]
    assert len(d.hand_at(4)) == 8
    (s,) = test_draws(deck, make_pool(MAIN), 1, seed=4, turns=4, going_second=True)
    assert sorted(s.draws) == [1, 2, 3, 4]
    short = make_deck([(c, 1) for c in MAIN[:6]])
    (x,) = test_draws(short, make_pool(MAIN), 1, seed=1, turns=5)
    assert x.deck_out_turn == 3
    assert expand([(MAIN[0], 2)]) == [MAIN[0], MAIN[0]]


def test_turn_rules_module_is_not_named_like_the_rules_package() -> None:
    """`deckcheck.rules` is the checker's rules package; the turn rules of a format live in
    `deckcheck.sim.turnrules` (one name, one meaning)."""
    import importlib.util

    assert importlib.util.find_spec("deckcheck.sim.rules") is None
    assert TurnRules().hand_size == 5
