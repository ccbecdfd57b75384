"""Exchange steps: everything between the auction and the play, one kind per class.

A ruleset's :meth:`~calabrasella.Ruleset.exchange_plan` returns a tuple of
steps. The engine runs them in order on a :class:`Work` (a mutable working
copy of the deal, private to one call of :func:`calabrasella.apply`): each
step **starts** (resolves what needs no decision, or asks a seat or chance
to act), lists its **legal actions**, **applies** one action, names the
**phase** it waits in, and says which of its actions are **hidden** from
other seats. The engine keeps only the driver, the auction and the play, so
a variant that needs a new kind of step writes a :class:`Step` subclass in
its own file (see the variants page of the docs).

The built-in kinds:

| Step | What happens |
|---|---|
| `CallStep()` | the declarer calls a card; its holder hands it over |
| `GiveBackStep(face_up)` | the declarer returns a card to the seat that gave |
| `DiscardStep(role, min_count, max_count, as_taken)` | a seat lays cards face down into the stock |
| `ExposeStep()` | the stock is turned face up for all |
| `TakeStep(role, count)` | a seat takes cards from the stock |
| `RaiseStep(choices)` | the declarer may raise (solissimo) |
| `DrawStep(role, count)` | chance: a seat draws `count` stock cards unseen |
"""


from __future__ import annotations

from ._call_steps import CallStep, GiveBackStep
from ._raise_steps import DrawStep, RaiseStep, draw_outcome, raised_plan
from ._stock_steps import DiscardStep, ExposeStep, TakeStep
from .protocol import (
    Exchange,
    ForcedEntry,
    Role,
    Step,
    Work,
    card_actions,
    describe,
    put,
    wrong_kind,
)

__all__ = [
    "CallStep",
    "DiscardStep",
    "DrawStep",
    "Exchange",
    "ExposeStep",
    "ForcedEntry",
    "GiveBackStep",
    "RaiseStep",
    "Role",
    "Step",
    "TakeStep",
    "Work",
    "card_actions",
    "describe",
    "draw_outcome",
    "put",
    "raised_plan",
    "wrong_kind",
]
