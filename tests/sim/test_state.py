"""Rule-level tests of the duel state: dealing, turn flow, draws, deck-out, hand limit,
Normal Summons and tributes, zone limits."""

from __future__ import annotations

import pytest
from simkit import (
    expand,
    extra_monster,
    fillers,
    make_deck,
    make_pool,
    monster,
    spell,
    token,
    trap,
)

from deckcheck.cards.model import Frame
from deckcheck.errors import IllegalAction, SimError
from deckcheck.sim.draws import opening_hands, test_draws
from deckcheck.sim.state import (
    DuelState,
    Phase,
    normal_summon_problem,
    tributes_needed,
)

FUSION = extra_monster(500, "Big Fusion")
SYNCHRO = extra_monster(501, "Fast Synchro", Frame.SYNCHRO)
MAIN = fillers(40)


def forty_deck() -> tuple[DuelState, list]:
    deck = make_deck([(c, 1) for c in MAIN], [(FUSION, 2), (SYNCHRO, 1)])
    pool = make_pool(MAIN, FUSION, SYNCHRO)
    return DuelState.from_deck(deck, pool, seed=1), MAIN


def test_deal_five_and_extra_deck_apart() -> None:
    state, main = forty_deck()
    assert len(state.hand) == 5
    assert len(state.zones.deck) == 35
    assert [c.name for c in state.zones.extra] == ["Big Fusion", "Big Fusion", "Fast Synchro"]
    assert sorted(c.passcode for c in state.hand + state.zones.deck) == sorted(
        c.passcode for c in main)


def test_extra_deck_is_never_drawn() -> None:
    state, _ = forty_deck()
    state.start_turn()
    seen = list(state.hand)
    for _ in range(40):
        state.end_turn(discard=lambda hand, n: list(hand[:n]))
        state.start_turn()
        seen.extend(state.drawn.get(state.turn, []))
        if state.lost:
            break
    assert state.lost is not None and state.lost.startswith("deck-out")
    assert all(c.deck == "main" for c in seen)
    assert len(state.zones.extra) == 3


def test_seeded_shuffle_is_reproducible() -> None:
    deck = make_deck([(c, 1) for c in MAIN])
    pool = make_pool(MAIN)
    a = DuelState.from_deck(deck, pool, seed=42)
    b = DuelState.from_deck(deck, pool, seed=42)
    c = DuelState.from_deck(deck, pool, seed=43)
    assert a.hand == b.hand and a.zones.deck == b.zones.deck
    assert a.zones.deck + a.hand != c.zones.deck + c.hand


def test_going_first_no_draw_and_no_battle_on_turn_one() -> None:
    state, _ = forty_deck()
    assert state.start_turn() == []
    assert len(state.hand) == 5 and state.phase is Phase.MAIN1
    with pytest.raises(IllegalAction, match="no Battle Phase on turn 1"):
        state.enter_battle_phase()
    state.end_turn()
    assert len(state.start_turn()) == 1
    assert len(state.hand) == 6
    state.enter_battle_phase()
    assert state.phase is Phase.BATTLE


def test_going_second_draws_a_sixth_card_and_may_battle() -> None:
    deck = make_deck([(c, 1) for c in MAIN])
    state = DuelState.from_deck(deck, make_pool(MAIN), seed=3, going_second=True)
    assert len(state.start_turn()) == 1
    assert len(state.hand) == 6
    state.enter_battle_phase()
    state.enter_main2()
    assert state.phase is Phase.MAIN2


def test_drawing_from_empty_deck_loses() -> None:
    cards = fillers(6)
    state = DuelState(cards, seed=0)
    state.start_turn()          # turn 1: no draw
    state.end_turn()
    assert len(state.start_turn()) == 1  # turn 2: the last card
    assert state.lost is None and state.zones.deck == []
    state.end_turn()
    state.start_turn()          # turn 3: must draw from an empty Deck
    assert state.lost is not None and "empty Deck" in state.lost
    with pytest.raises(IllegalAction, match="duel is over"):
        state.end_turn()


def test_hand_limit_discards_down_to_six_at_end_phase() -> None:
    state = DuelState(fillers(20), seed=5, going_second=True)
    state.start_turn()
    state.draw(2)               # e.g. a draw spell: 8 cards
    assert len(state.hand) == 8
    last_two = state.hand[-2:]
    discarded = state.end_turn()
    assert discarded == last_two
    assert len(state.hand) == 6 and state.zones.gy == last_two


def test_hand_limit_with_a_chosen_discard_and_a_bad_policy() -> None:
    state = DuelState(fillers(20), seed=5, going_second=True)
    state.start_turn()
    state.draw(1)
    first = state.hand[0]
    assert state.end_turn(discard=lambda hand, n: [hand[0]]) == [first]
    state.start_turn()
    state.draw(1)
    with pytest.raises(IllegalAction, match="exactly 2 must be discarded"):
        state.end_turn(discard=lambda hand, n: [hand[0]])


def test_six_cards_are_kept_without_discarding() -> None:
    state = DuelState(fillers(20), seed=5, going_second=True)
    state.start_turn()
    assert state.end_turn() == [] and len(state.hand) == 6


def test_tribute_counts() -> None:
    assert tributes_needed(monster(1, "L1", 1)) == 0
    assert tributes_needed(monster(1, "L4", 4)) == 0
    assert tributes_needed(monster(1, "L5", 5)) == 1
    assert tributes_needed(monster(1, "L6", 6)) == 1
    assert tributes_needed(monster(1, "L7", 7)) == 2
    assert tributes_needed(monster(1, "L8", 8)) == 2


def _state_with_hand(hand: list, **kw: object) -> DuelState:
    state = DuelState(fillers(30, 70000), seed=None, shuffle=False, **kw)  # type: ignore
    state.zones.hand = list(hand)
    state.start_turn()
    return state


def test_normal_summon_once_per_turn_and_tributes() -> None:
    low1, low2 = monster(1, "Low A", 4), monster(2, "Low B", 3)
    mid, big = monster(3, "Mid", 6), monster(4, "Big", 8)
    state = _state_with_hand([low1, mid, big, low2, monster(5, "Low C", 2)])
    assert state.normal_summon(low1) == 0
    with pytest.raises(IllegalAction, match="one Normal Summon or Set is allowed per turn"):
        state.normal_summon(low2)
    state.end_turn()
    state.start_turn()
    with pytest.raises(IllegalAction, match="needs 1 Tribute"):
        state.normal_summon(mid)
    state.normal_summon(mid, tributes=[0])
    assert state.zones.monsters[0] is mid and state.zones.gy == [low1]
    state.end_turn()
    state.start_turn()
    with pytest.raises(IllegalAction, match="needs 2 Tribute"):
        state.normal_summon(big, tributes=[0])
    state.end_turn()
    state.start_turn()
    state.normal_summon(low2, set_=True)
    state.end_turn()
    state.start_turn()
    state.normal_summon(big, tributes=[0, 1])
    assert [c for c in state.zones.monsters if c] == [big]
    assert state.zones.gy == [low1, mid, low2]


def test_tribute_must_be_a_monster_on_the_field() -> None:
    state = _state_with_hand([monster(3, "Mid", 5)])
    with pytest.raises(IllegalAction, match="no monster in Main Monster Zone 2"):
        state.normal_summon(0, tributes=[2])


@pytest.mark.parametrize("card, why", [
    (extra_monster(10, "Fusion X"), "Extra Deck monster"),
    (monster(11, "Ritual X", 6, Frame.RITUAL), "Ritual monster"),
    (monster(12, "Nomi X", 4, cannot_normal_summon=True), "cannot be Normal Summoned"),
    (token(13, "Sheep Token"), "a token"),
    (spell(14, "Pot"), "a spell"),
])
def test_never_normal_summoned(card: object, why: str) -> None:
    problem = normal_summon_problem(card)  # type: ignore[arg-type]
    assert problem is not None and why in problem
    state = _state_with_hand([card])
    with pytest.raises(IllegalAction, match=why):
        state.normal_summon(0)
    assert state.hand[0] is card and not state.normal_summoned


def test_normal_summon_outside_main_phase() -> None:
    state = DuelState(fillers(20), seed=1)
    with pytest.raises(IllegalAction, match="only in a Main Phase"):
        state.normal_summon(0)


def test_monster_zones_hold_five() -> None:
    state = _state_with_hand([monster(i, f"M{i}", 4) for i in range(1, 7)])
    for _ in range(5):
        state.normal_summon(0)
        state.end_turn(discard=lambda hand, n: list(hand[-n:]))
        state.start_turn()
    assert all(state.zones.monsters)
    with pytest.raises(IllegalAction, match="All 5 Main Monster Zones are full"):
        state.normal_summon(0)


def test_spell_trap_zones_hold_five_and_field_zone_apart() -> None:
    cards = [spell(i, f"S{i}") for i in range(1, 6)] + [trap(6, "T6")]
    field_a, field_b = spell(7, "Field A", "Field"), spell(8, "Field B", "Field")
    state = _state_with_hand([*cards, field_a, field_b])
    for c in cards[:5]:
        state.set_spell_trap(c)
    with pytest.raises(IllegalAction, match="All 5 Spell & Trap Zones are full"):
        state.set_spell_trap(cards[5])
    assert state.set_spell_trap(field_a) == "field"
    assert state.set_spell_trap(field_b) == "field"
    assert state.zones.field_zone is field_b and state.zones.gy == [field_a]
    with pytest.raises(IllegalAction, match="not a Spell or Trap"):
        state2 = _state_with_hand([monster(1, "M")])
        state2.set_spell_trap(0)


def test_pendulum_zones_are_the_end_spell_trap_zones() -> None:
    pen_a = monster(1, "Pen A", 4, Frame.EFFECT_PENDULUM, scale=1)
    pen_b = monster(2, "Pen B", 4, Frame.EFFECT_PENDULUM, scale=8)
    pen_c = monster(3, "Pen C", 4, Frame.EFFECT_PENDULUM, scale=4)
    sts = [spell(10 + i, f"S{i}") for i in range(4)]
    state = _state_with_hand([pen_a, pen_b, pen_c, *sts])
    assert state.activate_pendulum(pen_a, "left") == 0
    assert state.activate_pendulum(pen_b, "right") == 4
    assert state.zones.pendulum == (pen_a, pen_b)
    with pytest.raises(IllegalAction, match="left Pendulum Zone"):
        state.activate_pendulum(pen_c, "left")
    for s in sts[:3]:
        state.set_spell_trap(s)
    # two Pendulum Scales + three Set cards fill all five Spell & Trap Zones
    with pytest.raises(IllegalAction, match="All 5 Spell & Trap Zones are full"):
        state.set_spell_trap(sts[3])
    with pytest.raises(IllegalAction, match="not a Pendulum monster"):
        state.activate_pendulum(sts[3], "right")


def test_extra_monster_zone_holds_one() -> None:
    state = DuelState(fillers(10), [FUSION, SYNCHRO], seed=1)
    state.start_turn()
    state.special_summon_from_extra(FUSION)
    assert state.zones.extra_monster is FUSION
    with pytest.raises(IllegalAction, match="Extra Monster Zone is occupied"):
        state.special_summon_from_extra(SYNCHRO)


def test_from_deck_errors_are_one_sentence() -> None:
    pool = make_pool(MAIN)
    deck = make_deck([(c, 1) for c in MAIN])
    deck.main.append(deck.main[0].model_copy(update={"passcode": 123}))
    with pytest.raises(SimError, match=r"Passcode 123 \(test.ydk:2\) is not in the card pool"):
        DuelState.from_deck(deck, pool)
    tok = token(77, "Sheep Token")
    with pytest.raises(SimError, match="Sheep Token .* is a token card"):
        DuelState.from_deck(make_deck([(tok, 1), *[(c, 1) for c in MAIN]]),
                            make_pool(MAIN, tok))
    with pytest.raises(SimError, match="too few to deal"):
        DuelState.from_deck(make_deck([(MAIN[0], 3)]), pool)


def test_extra_card_in_main_section_starts_in_extra_deck() -> None:
    deck = make_deck([(FUSION, 1), *[(c, 1) for c in MAIN]])
    state = DuelState.from_deck(deck, make_pool(MAIN, FUSION), seed=2)
    assert state.zones.extra == [FUSION]
    assert FUSION not in state.hand + state.zones.deck


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


def test_activated_spells_resolve_to_the_gy_and_field_spells_stay() -> None:
    pot, umi, trap_card = spell(20, "Pot"), spell(21, "Umi", race="Field"), trap(22, "Trap")
    state = _state_with_hand([pot, umi, trap_card])
    state.activate_spell(pot)
    assert state.zones.gy == [pot] and state.zones.spell_trap == [None] * 5
    state.activate_spell(umi)
    assert state.zones.field_zone is umi and state.zones.gy == [pot]
    with pytest.raises(IllegalAction, match="Trap is not a Spell"):
        state.activate_spell(trap_card)
    assert state.hand == [trap_card]


def test_banish_from_deck_top_and_monsters_on_field() -> None:
    state = DuelState(fillers(13), [FUSION], seed=None, shuffle=False)  # 5 dealt, 8 left
    state.start_turn()
    top = state.zones.deck[:3]
    assert state.banish_from_deck_top(3) == top
    assert state.zones.banished == top and len(state.zones.deck) == 5
    with pytest.raises(IllegalAction, match="The Deck has 5 cards; 6 cannot be banished"):
        state.banish_from_deck_top(6)
    assert state.zones.monsters_on_field() == []
    summoned = state.hand[0]
    state.normal_summon(summoned)
    state.special_summon_from_extra(FUSION)
    assert state.zones.monsters_on_field() == [summoned, FUSION]
