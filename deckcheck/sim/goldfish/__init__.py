"""Goldfishing: how often a deck opens with what it needs.

`profile` (the TOML format, validation, compiling against a deck), `exact` (hypergeometric
enumeration, fractions), `montecarlo` (NumPy, imported only when needed), `report` (the
full report and its text form), `chart` (a PNG bar chart without matplotlib).
"""
