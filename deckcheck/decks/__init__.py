"""Deck files: the `Deck` model, one reader/writer module per format, and format detection."""
