"""Formats and banlists: the data files under `banlists/`, their models, and list import/export."""
