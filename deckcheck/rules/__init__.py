"""Deck rules: one module per rule, each with a stable code, and the explicit registry."""
