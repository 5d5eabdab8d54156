"""The simulation core: the rules of a turn, written once (`turnrules`: hand size, draws, the
hand limit, deck-out, the Normal Summon), one player's duel state that applies them card by
card (`state`), test draws (`draws.opening_hands`, used by `deckcheck check --hands N`,
and `deckcheck draw`), and goldfishing (`goldfish`: exact and Monte Carlo odds, which apply
the same rules to count vectors)."""
