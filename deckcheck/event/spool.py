"""The rows of a large event, kept on disk as they come: memory stays bounded, whatever the size.

An event of 100,000 registrations makes about as many player rows and three times as many
problem rows (~3 KB a registration); held in memory they were most of what `event check` used
(issue 24). `RowSpool` is the table of one kind of row (`PlayerRow`, `ProblemRow`): rows are
appended as each registration is checked, each kept as the tuple of its values (no row object
is made as it comes); the first `KEEP` are held (`KEEP * per_registration` of a table with
several rows a registration: an event of a few thousand registrations never touches the
disk), and past that every row is written to an unnamed temporary file,
`BLOCK` rows to a pickled block, and only the current block and each block's place are
kept. Reading gives the rows back in order, as row objects or as their values (`values`;
those of the rows held are made once and shared by every read):
`len`, iteration, an index or a slice (a forked process reads its slice of the file with
`os.pread`, so processes do not share a file position).

`fill` (set by `run.finish`) completes each row's values as they are read back (as rows or as
values): the duplicate flags, known only once every registration is in, are never stored with
the rows.
"""

from __future__ import annotations

import os
import pickle
import weakref
from collections.abc import Callable, Iterator, Sequence
from dataclasses import fields
from operator import attrgetter
from typing import IO, Any, TypeVar, overload

T = TypeVar("T")

#: Rows held in memory before the table moves to disk (the player rows of an event of 8,192
#: registrations).
KEEP = 8192
#: Rows in one pickled block on disk.
BLOCK = 1024


def values_getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The values of the named attributes, as one tuple (`attrgetter`, one name too)."""
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda row: (one(row),)
    return attrgetter(*names)


class RowSpool(Sequence[T]):
    """An append-only table of slotted dataclass rows (`kind`), on disk past `keep` rows."""

    def __init__(self, kind: type[T], *, keep: int | None = None,
                 block: int | None = None, per_registration: int = 1) -> None:
        """`per_registration`: about how many rows a registration makes (a table of problems:
        three or four), so that `KEEP` rows each are held (when `keep` is not given)."""
        self.kind = kind
        self.names = tuple(f.name for f in fields(kind))  # type: ignore[arg-type]
        self._setters = [getattr(kind, n).__set__ for n in self.names]  # slotted: descriptors
        self.keep = KEEP * per_registration if keep is None else keep
        self.block = BLOCK if block is None else block
        #: Completes a row's values (a list, in field order) as they are read back (the
        #: duplicate flags), or None.
        self.fill: Callable[[list[Any]], None] | None = None
        #: the values of the rows held (until the table moves to disk), or once on disk, of
        #: the rows after the last block written
        self._tail: list[tuple[Any, ...]] = []
        #: the held rows as row objects, and as completed values (`fill`), each made on the
        #: first read after an append (or after `fill` is set)
        self._rows: list[T] = []
        self._done: list[list[Any]] | None = None
        #: a row's values, in field order
        self._values: Callable[[T], tuple[Any, ...]] = values_getter(self.names)
        self._file: IO[bytes] | None = None
        self._blocks: list[tuple[int, int]] = []  # (offset, length) of each block on disk
        self._end = 0
        self._len = 0
        # the `fill` `_rows` and `_done` were each completed by
        self._rows_fill: object = None
        self._done_fill: object = None

    def __len__(self) -> int:
        return self._len

    def append(self, row: T) -> None:
        """Append a row (its values are stored: changing the row later changes nothing)."""
        self.append_values(self._values(row))

    def append_values(self, values: tuple[Any, ...]) -> None:
        """Append a row given as its values, in field order (`names`): stored as they are,
        no row object made."""
        tail = self._tail
        tail.append(values)
        self._len += 1
        if self._file is None:
            if self._rows or self._done is not None:
                self._rows, self._done = [], None  # made again on the next read
            if len(tail) > self.keep:
                self._to_disk()
        elif len(tail) == self.block:
            self._write(tail)
            self._tail = []

    def extend(self, rows: list[T]) -> None:
        for row in rows:
            self.append(row)

    def extend_values(self, rows: list[tuple[Any, ...]]) -> None:
        """`append_values` of each."""
        for values in rows:
            self.append_values(values)

    def _to_disk(self) -> None:
        """Move the held rows to the file, a block at a time; the rest stay as the tail."""
        import tempfile  # only past KEEP rows (~5 ms of every event command's start)

        self._file = tempfile.TemporaryFile(prefix="deckcheck-rows-")
        weakref.finalize(self, self._file.close)  # closed with the spool
        values = self._tail
        full = len(values) // self.block * self.block
        for start in range(0, full, self.block):
            self._write(values[start:start + self.block])
        self._tail = values[full:]

    def _write(self, values: list[tuple[Any, ...]]) -> None:
        data = pickle.dumps(values, pickle.HIGHEST_PROTOCOL)
        assert self._file is not None
        self._file.seek(self._end)
        self._file.write(data)
        self._file.flush()
        self._blocks.append((self._end, len(data)))
        self._end += len(data)

    def _stored(self, i: int) -> list[tuple[Any, ...]]:
        """Block `i` as stored: each row's values (the tail not on disk yet as the last)."""
        if i == len(self._blocks):
            return self._tail
        assert self._file is not None
        offset, length = self._blocks[i]
        values: list[tuple[Any, ...]] = pickle.loads(
            os.pread(self._file.fileno(), length, offset))
        return values

    def _block(self, i: int) -> list[T]:
        """Block `i` as rows (the held rows, or the tail not on disk yet, as the last)."""
        if self._file is None and i == 0:  # the held rows: made once, filled once
            if len(self._rows) != self._len or self._rows_fill is not self.fill:
                self._rows = list(map(self._make, self._values_of(0)))
                self._rows_fill = self.fill
            return self._rows
        return list(map(self._make, self._values_of(i)))

    def _values_of(self, i: int) -> Sequence[Sequence[Any]]:
        """Block `i` as each row's values, completed by `fill` (the held rows' once)."""
        fill = self.fill
        if fill is None:
            return self._stored(i)
        if self._file is None and i == 0:
            if self._done is None or self._done_fill is not fill:
                self._done, self._done_fill = self._completed(self._tail, fill), fill
            return self._done
        return self._completed(self._stored(i), fill)

    @staticmethod
    def _completed(stored: list[tuple[Any, ...]], fill: Callable[[list[Any]], None]
                   ) -> list[list[Any]]:
        done = []
        for v in stored:
            values = list(v)
            fill(values)
            done.append(values)
        return done

    def values(self) -> Sequence[Sequence[Any]]:
        """The rows as their values in field order (`names`), completed by `fill`, read back
        without making a row object of each. Those of the rows held are the spool's own:
        read them, never change them."""
        return _Stored(self)

    def _make(self, values: Sequence[Any]) -> T:
        """A row from its stored values, set through the slots' own descriptors (twice as
        fast as `object.__setattr__` by name, a third faster than the constructor)."""
        row = object.__new__(self.kind)
        for put, value in zip(self._setters, values, strict=True):
            put(row, value)
        return row

    @property
    def _size(self) -> int:
        """Rows per block as read back (all of them while held)."""
        return self.block if self._file is not None else max(1, self._len)

    def __iter__(self) -> Iterator[T]:
        for i in range(len(self._blocks) + 1 if self._file is not None else 1):
            yield from self._block(i)

    @overload
    def __getitem__(self, i: int) -> T: ...

    @overload
    def __getitem__(self, i: slice) -> list[T]: ...

    def __getitem__(self, i: int | slice) -> T | list[T]:
        result: T | list[T] = _index(self, i, self._block)
        return result

    def close(self) -> None:
        """Drop the file (also done when the spool is collected, or the process ends)."""
        if self._file is not None:
            self._file.close()


def _index(table: RowSpool[Any], i: int | slice, block: Callable[[int], Sequence[Any]]) -> Any:
    """Item or slice `i` of `table`'s rows, read a block at a time with `block`."""
    if isinstance(i, slice):
        start, stop, step = i.indices(table._len)
        if step != 1:
            return [_index(table, k, block) for k in range(start, stop, step)]
        out: list[Any] = []
        size = table._size
        k = start
        while k < stop:
            b = k // size
            rows = block(b)
            out += rows[k - b * size:min(stop - b * size, len(rows))]
            k = (b + 1) * size
        return out
    if i < 0:
        i += table._len
    if not 0 <= i < table._len:
        raise IndexError(i)
    size = table._size
    return block(i // size)[i % size]


class _Stored(Sequence[Sequence[Any]]):
    """A spool's rows as their values (`RowSpool.values`)."""

    def __init__(self, table: RowSpool[Any]) -> None:
        self._table = table

    def _block(self, i: int) -> Sequence[Sequence[Any]]:
        return self._table._values_of(i)

    def __len__(self) -> int:
        return len(self._table)

    def __iter__(self) -> Iterator[Sequence[Any]]:
        table = self._table
        for i in range(len(table._blocks) + 1 if table._file is not None else 1):
            yield from self._block(i)

    @overload
    def __getitem__(self, i: int) -> Sequence[Any]: ...

    @overload
    def __getitem__(self, i: slice) -> list[Sequence[Any]]: ...

    def __getitem__(self, i: int | slice) -> Sequence[Any] | list[Sequence[Any]]:
        result: Sequence[Any] | list[Sequence[Any]] = _index(self._table, i, self._block)
        return result
