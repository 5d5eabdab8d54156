"""The import layer: card data from every source into the card store.

One floor above `deckcheck.sources` (which only parse) and `deckcheck.cards` (the model and
the read-only pool): `merge` (every source's records into cards), `writer` (the store file,
written anew or patched, renamed over the old one), `guard` (one import at a time, ids,
validation, the shrink guard), and the use cases: `run.import_sources` (`cards import`) and
`update.update_ygoprodeck` (`cards update`: download, then import).
"""
