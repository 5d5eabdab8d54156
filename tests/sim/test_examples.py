"""The shipped example profile works with the shipped example deck and the built-in cards."""

from __future__ import annotations

from pathlib import Path

from deckcheck.cards.builtin import builtin_pool
from deckcheck.decks.files import read_deck
from deckcheck.sim.goldfish.compiled import compile_profile
from deckcheck.sim.goldfish.profile import load_profile_file, profile_next_to
from deckcheck.sim.goldfish.report import odds
from deckcheck.sim.state import DuelState, deal_cards

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_example_profile_compiles_and_runs() -> None:
    pool = builtin_pool()
    deck_path = EXAMPLES / "tcg-legal.ydk"
    deck = read_deck(str(deck_path), pool)
    main, extra = deal_cards(deck, pool)
    assert (len(main), len(extra)) == (40, 15)
    state = DuelState(main, extra, seed=1, going_second=True)
    assert len(state.extra) == 15 and len(state.hand) == 5
    found = profile_next_to(deck_path)
    assert found == str(EXAMPLES / "tcg-legal.profile.toml")
    cp = compile_profile(load_profile_file(found), main, pool, found, extra=len(extra))
    assert cp.notes == []
    assert {b.kind for b in cp.behaviours.values()} == {"search", "draw", "excavate"}
    rep = odds(cp, hands=5000, seed=1, turns=2, with_sensitivity=False)
    rates = [r.probability for r in rep.results[0].goal().by_turn]
    assert 0 < rates[0] <= rates[1] < 1
    assert rep.engine == "monte-carlo"  # draw cards on a deck this size: Monte Carlo


def test_paired_variants_in_one_batch_match_separate_runs() -> None:
    """The +-1 copy table plays every variant in one batch and replays only the hands a
    variant's changed card can reach: the very same results, hand by hand, as running each
    variant on its own."""
    import numpy as np

    from deckcheck.sim.goldfish.montecarlo import simulate, simulate_paired

    pool = builtin_pool()
    deck_path = EXAMPLES / "tcg-legal.ydk"
    main, extra = deal_cards(read_deck(str(deck_path), pool), pool)
    prof = EXAMPLES / "tcg-legal.profile.toml"
    cp = compile_profile(load_profile_file(prof), main, pool, str(prof), extra=len(extra))
    Ks = [cp.K]
    for ci in range(len(cp.K)):
        for by in (1, -1):
            K = list(cp.K)
            K[ci] += by
            Ks.append(tuple(K))
    goal = {"success": cp.success}
    together = simulate_paired(cp, Ks, 3000, seed=4, goals=goal)
    for K, run in zip(Ks, together, strict=True):
        alone = simulate(cp, 3000, seed=4, goals=goal, K=K, per_hand=True)
        assert run.by_turn == alone.by_turn
        assert np.array_equal(run.per_hand, alone.per_hand)


def test_monte_carlo_odds_load_neither_the_exact_engine_nor_pydantic(tmp_path: Path) -> None:
    """The default `odds` of the example (draw cards: Monte Carlo) imports only what it runs:
    not the exact engine (nor `fractions`), not pydantic (the profile is well-formed)."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(DECKCHECK_DB=str(tmp_path / "none.sqlite"), NO_COLOR="1")
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "deckcheck", "odds",
                          "examples/tcg-legal.ydk", "--seed", "1", "--first"],
                         capture_output=True, text=True, env=env, cwd=root, check=False)
    assert run.returncode == 0, run.stderr[-500:]
    assert "Monte Carlo" in run.stdout
    mods = {line.rsplit("|", 1)[1].strip() for line in run.stderr.splitlines()
            if line.startswith("import time:") and "|" in line}
    assert "deckcheck.sim.goldfish.npeval" in mods
    assert not mods & {"deckcheck.sim.goldfish.exact", "fractions", "pydantic",
                       "deckcheck.sim.draws"}  # (test hands: not the odds' business)
