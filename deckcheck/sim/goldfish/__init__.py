"""Goldfishing: how often a deck opens with what it needs.

`profile` (the TOML format as written), `conditions` (the condition tree, its normal form),
`compiled` (a profile resolved against one deck), `cardrules` (what common draw cards do),
`play` (the draw-card policy both engines follow), `exact` (hypergeometric enumeration,
fractions), `montecarlo` (NumPy, imported only when needed; goals on batches in `npeval`,
the turn loop in `turnloop`), `report` (the full report and its text form), `chart` (a PNG
bar chart without matplotlib).
"""
