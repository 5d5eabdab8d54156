"""The simulation core: one player's duel state (`state`: zones, turn flow, draws, Normal
Summons; `summon`: the summoning rules), test draws (`draws.opening_hands`, used by
`deckcheck check --hands N`), and goldfishing (`goldfish`: exact and Monte Carlo odds)."""
