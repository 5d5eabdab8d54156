"""Goldfishing: how often a deck opens with what it needs.

`profile` (the TOML format as written), `conditions` (the condition tree, its normal form),
`compiled` (a profile resolved against one deck), `cardrules` (what common draw cards do),
`play` (the draw-card policy both engines follow), `exact` (hypergeometric enumeration,
fractions), `montecarlo` (NumPy, imported only when needed; goals on batches in `npeval`,
the turn loop in `turnloop`: dealing in `deal`, batch state in `batch`, card effects in
`effects`, +-1 copy variants in `variants`), `report` (the full report: the odds worked
out; its models in `results`, its text for people in `render`), `derived`
(`[rows]`: conditional rows and expected counts), `copies` (the success rate with 0-3
copies of a card), `side` (games 2 and 3 after a side plan), `chart` (matplotlib, the
optional chart extra, imported only for --chart).

Both engines play one game per hand: draw cards are played for success and every row is
measured on the hand that game left (`one_game=False`: each row played for on its own).
"""
