"""Reading JSON: `reading.loads` (orjson where it gives the same values, the standard
library otherwise) gives exactly what `json.loads` gives, value or error."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from deckcheck.errors import ImportFailed
from deckcheck.sources.reading import loads, read_json_file


def _outcome(fn: Any, raw: bytes) -> tuple[str, str]:
    try:
        return "value", repr(fn(raw))
    except (ValueError, RecursionError) as exc:
        return type(exc).__name__, str(exc)


@pytest.mark.parametrize("raw", [
    b'{"data": [{"id": 1, "name": "A", "atk": -5, "ok": true, "n": null}]}',
    # integers beyond 64 bits: orjson would read them as floats
    b"[123456789012345678901234567890]", b'{"id": -99999999999999999999}',
    b"[18446744073709551615, -9223372036854775808, 1.5e-320, -0.0, 1E2]",
    b"[-9223372036854775809]", b"[-9999999999999999999, 9999999999999999999]",
    # what orjson refuses: NaN, numbers too big for a float, lone surrogates, a byte order
    # mark, duplicate keys (kept as the standard library keeps them), bad JSON
    b"[NaN, Infinity, -Infinity]", b"[1e400]", b'["\\ud800"]', b"\xef\xbb\xbf{}",
    b'{"a": 1, "b": 2, "a": 3}', b"[1,]", b"01", b'"\xc3"', b'{"a" 1}', b"",
    b"[" * 3000 + b"]" * 3000,
])
def test_loads_gives_what_json_loads_gives(raw: bytes) -> None:
    assert _outcome(loads, raw) == _outcome(json.loads, raw)


def test_long_integers_stay_integers() -> None:
    value = loads(b'{"id": 123456789012345678901234567890, "x": 1}')
    assert value == {"id": 123456789012345678901234567890, "x": 1}
    assert type(value["id"]) is int
    assert math.isnan(loads(b"[NaN]")[0])


def test_a_file_with_a_long_integer_reads_as_the_standard_library_reads_it(
        tmp_path: Path) -> None:
    f = tmp_path / "cards.json"
    f.write_bytes(b'{"data": [{"id": 123456789012345678901234, "name": "A"}]}')
    assert read_json_file(f) == json.loads(f.read_bytes())
    f.write_bytes(b'{"data": [1,]}')
    with pytest.raises(ImportFailed, match="is not valid JSON"):
        read_json_file(f)
