"""Hand-made cards for the CLI tests (facts only), imported by the tests as `clikit`."""

from __future__ import annotations

from collections.abc import Callable

from deckcheck.cards.model import Card, Frame, Kind
from deckcheck.cards.pool import MemoryPool

_KINDS = {Frame.SPELL: Kind.SPELL, Frame.TRAP: Kind.TRAP, Frame.TOKEN: Kind.TOKEN,
          Frame.SKILL: Kind.SKILL}

#: The `install_pool` fixture: `install_pool(cards, extra_ids=None) -> MemoryPool`.
InstallPool = Callable[..., MemoryPool]


def card(passcode: int, name: str, frame: Frame = Frame.EFFECT, *, alts: tuple[int, ...] = (),
         rule_name: str | None = None) -> Card:
    """A card from its facts (the kind follows from the frame; the rule name is the name)."""
    return Card(passcode=passcode, alt_passcodes=alts, name=name,
                kind=_KINDS.get(frame, Kind.MONSTER), frame=frame, rule_name=rule_name or name)
