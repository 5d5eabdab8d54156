""""Did you mean": the one way deckcheck picks the names closest to a name it does not know.

Every pool suggests the same way (the built-in set, test pools and the SQLite store):

1. the name is normalised (`cards.names.normalize`); an ASCII name is compared with English
   card names only, any other with the names in every language;
2. candidates are the `CANDIDATES` known names sharing the most trigrams with it (the name
   padded as "^name$", so a shared start or end counts);
3. `rank` scores each candidate with difflib (the whole name, or the start of a longer name
   at 0.95) and keeps those scoring at least 0.6, best first; on a tie the shorter name,
   then the name in alphabetical order.

Step 2 is a `TrigramIndex` in memory for pools held in memory; the store keeps the same
trigrams on disk (an SQLite FTS5 table with the trigram tokenizer, `store.SUGGEST_TABLES`),
so a cold "did you mean" answers without building an index of every name first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import mmap

#: How many candidates (by shared trigrams) difflib ranks.
CANDIDATES = 200
CUTOFF = 0.6


def padded(key: str) -> str:
    return f"^{key}$"


def trigrams(key: str) -> set[str]:
    """The trigrams of a normalised name, padded ("^as", "ash", …, "om$")."""
    p = padded(key)
    return {p[i:i + 3] for i in range(len(p) - 2)}


def tier(key: str) -> str:
    """"en" (compare with English names) for an ASCII name, else "all"."""
    return "en" if key.isascii() else "all"


def fts_query(key: str) -> str:
    """An FTS5 query matching any of the name's trigrams."""
    return " OR ".join('"' + g.replace('"', '""') + '"' for g in sorted(trigrams(key)))


def rank(key: str, candidates: Iterable[str], n: int, cutoff: float = CUTOFF) -> list[str]:
    """The candidates closest to `key`, best first (at most `n`)."""
    import difflib  # only for suggestions: kept off `deckcheck check`'s start-up

    matcher = difflib.SequenceMatcher(b=key, autojunk=False)
    scored: list[tuple[float, int, str]] = []
    for cand in candidates:
        matcher.set_seq1(cand)
        score = matcher.ratio()
        if len(cand) > len(key) + 2:
            matcher.set_seq1(cand[:len(key) + 1])
            score = max(score, matcher.ratio() * 0.95)
        if score >= cutoff:
            scored.append((score, len(cand), cand))
    scored.sort(key=lambda s: (-s[0], s[1], s[2]))
    return [cand for _, _, cand in scored[:n]]


class TrigramIndex:
    """Names by trigram, in memory: the candidates of step 2."""

    def __init__(self, keys: Iterable[str]) -> None:
        self.keys = list(dict.fromkeys(k for k in keys if k))
        grams: dict[str, list[int]] = {}
        for i, key in enumerate(self.keys):
            for g in trigrams(key):
                grams.setdefault(g, []).append(i)
        self.grams = grams

    def candidates(self, key: str, limit: int = CANDIDATES) -> list[str]:
        """The `limit` names sharing the most trigrams with `key`; on a tie, the name indexed
        first (not the order the trigrams were visited, which follows the hash seed)."""
        import heapq  # only for suggestions: not on the check path

        hits: Counter[int] = Counter()
        for g in trigrams(key):
            hits.update(self.grams.get(g, ()))
        best = heapq.nsmallest(limit, hits.items(), key=lambda hit: (-hit[1], hit[0]))
        return [self.keys[i] for i, _ in best]

    def closest(self, key: str, n: int) -> list[str]:
        return rank(key, self.candidates(key), n) if key else []


class NameLines:
    """Step 2 without building an index: the names one a line in one UTF-8 text, ``key<TAB>
    passcode,passcode`` sorted by key (`builtin_names.tsv`), searched for each trigram of the
    name by the regular-expression engine; "^" and "$" of a padded trigram are the newline
    before a line and the TAB after its key. A match runs to the end of its line, so
    each line counts once per trigram, and a match in the passcodes (no TAB after) fails:
    the counts are `TrigramIndex.candidates`' (keys hold no "^" or "$"), at a few
    milliseconds per name instead of seconds to index ~78,000 names first."""

    def __init__(self, data: bytes | mmap.mmap, start: int) -> None:
        """`start`: where the first line starts, after a header ending in a newline."""
        if start < 1 or data[start - 1:start] != b"\n":
            raise ValueError("the names' lines start after a header line")
        self.data = data
        self.start = start

    def counts(self, key: str) -> Counter[int]:
        """Line -> how many of the name's trigrams its key has (lines with none left out); a
        line is named by where it ends (`line`)."""
        data, ends = self.data, []
        for g in trigrams(key):
            text = ("\n" + g[1:] if g.startswith("^") else g)
            text = text[:-1] + "\t" if text.endswith("$") else text
            find = text.encode("utf-8")
            # only digits and commas can match in the passcodes after the TAB
            in_key = text.endswith("\t") or not set(text) <= set("0123456789,")
            at = data.find(find, self.start - 1)
            while at >= 0:
                end = data.find(b"\n", at + 1)
                if end < 0:
                    end = len(data)
                if in_key or data.find(b"\t", at, end) >= 0:  # not in the passcodes
                    ends.append(end)
                at = data.find(find, end)
        return Counter(ends)

    def line(self, end: int) -> tuple[str, list[int]]:
        """The key of the line ending at `end`, and its passcodes (ascending)."""
        start = self.data.rfind(b"\n", 0, end) + 1
        key, _, codes = self.data[start:end].partition(b"\t")
        return key.decode("utf-8"), [int(pc) for pc in codes.split(b",") if pc]
