"""The in-memory "did you mean" index gives the same candidates whatever the hash seed."""

from __future__ import annotations

import os
import subprocess
import sys

from deckcheck.cards.suggest import TrigramIndex

# 300 names, each sharing three of the query's trigrams: half its start ("drag…"), half its
# end ("…agon"), interleaved; more ties than the CANDIDATES (200) kept
_SCRIPT = """
from deckcheck.cards.suggest import TrigramIndex
keys = []
for i in range(150):
    tail = chr(0x4e00 + i) + chr(0x5e00 + i)
    keys += [f"drag{tail}", f"{tail}agon"]
print(TrigramIndex(keys).candidates("dragon"))
"""


def _candidates(seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    return subprocess.run([sys.executable, "-c", _SCRIPT], env=env, capture_output=True,
                          text=True, check=True).stdout


def test_candidates_do_not_depend_on_the_hash_seed() -> None:
    runs = {_candidates(seed) for seed in ("1", "2", "3", "4", "5", "6")}
    assert len(runs) == 1


def test_a_tie_goes_to_the_name_indexed_first() -> None:
    keys = [f"dragon{n}" for n in "abcdefghij"]
    assert TrigramIndex(keys).candidates("dragon", limit=3) == ["dragona", "dragonb", "dragonc"]
