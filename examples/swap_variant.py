"""A variant with an exchange step and an action of its own: Cavendish's Calabrasella with a blind swap.

The house rule: once a player has stood, and before he asks for his card,
each adversary passes one card of his choice face down to the other: first
the adversary after the single player, then the other one (who may pass on
the card he has just received). Only the two adversaries see the cards that
change hands; the single player, and the dealer sitting out at a table of
four, see each pass as a ``Hidden`` "passed a card face down" in their views. Then the exchange
goes on as Cavendish wrote it: ask, give back, discard, expose, take.

Nothing in the package knows about the swap. :class:`Swap` is the pass, an
action of its own kind (a :class:`calabrasella.CustomAction`): it writes
itself as ``swap Ad``, and records, JSON and pickles carry it once it is
registered (:func:`calabrasella.registered_action`; a package would decorate
the class with ``@cb.register_action``). :class:`SwapStep` is a
:class:`calabrasella.rulesets.steps.Step` written here: it owns its start,
its legal actions, how it applies one, the phase it waits in and what it
hides (the cards move with ``Work.move``, which records who saw them and
what the others are told). :class:`SwapCavendish` is a :class:`calabrasella.Cavendish` whose
exchange plan puts two swaps in front of Cavendish's own steps. The script
plays a few seeded deals, tells one swap as each seat saw it, saves a deal
as a record and reads it back, and runs the conformance check
(:func:`calabrasella.testing.check_ruleset`) on the variant.

usage: python examples/swap_variant.py [--deals N]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import ClassVar

import attrs

import calabrasella as cb
from calabrasella import places
from calabrasella.actions import JsonValue
from calabrasella.rulesets import Terms
from calabrasella.rulesets.steps import Role, Step, Work, wrong_kind
from calabrasella.testing import CheckReport, check_ruleset


def _card(value: cb.Card | str) -> cb.Card:
    return value if isinstance(value, cb.Card) else cb.Card.parse(value)


@attrs.frozen
class Swap(cb.CustomAction):
    """Pass ``card`` face down to the other adversary: ``Swap("Ad")``, written ``swap Ad``.

    Attributes:
        card: The card passed (a :class:`calabrasella.Card`, or its code).
    """

    kind: ClassVar[str] = "swap"
    description: ClassVar[str] = "pass a card face down"

    card: cb.Card = attrs.field(converter=_card)

    def __str__(self) -> str:
        """``swap Ad``."""
        return f"swap {self.card}"

    @classmethod
    def parse(cls, argument: str) -> Swap:
        """Read the card of ``swap Ad`` (any spelling :meth:`calabrasella.Card.parse` reads)."""
        return cls(cb.Card.parse(argument))

    def to_json(self) -> JsonValue:
        """The card's code: ``{"kind": "swap", "data": "Ad"}`` in a record."""
        return self.card.code

    @classmethod
    def from_json(cls, data: JsonValue) -> Swap:
        """Read a card's code back."""
        if not isinstance(data, str):
            raise ValueError(f"expected a card code such as 'Ad', got {data!r}")
        return cls(cb.Card.parse(data))


#: One pass per card, by card index.
PASSES: tuple[cb.Action, ...] = tuple(Swap(card) for card in cb.DECK)


@attrs.frozen
class SwapStep(Step):
    """The seat playing ``giver`` passes one card face down to the seat playing ``receiver``.

    Only those two see the card. Skipped when the giver holds no card.

    Attributes:
        giver: Who passes the card.
        receiver: Who gets it.
        actions: The kinds of action the step lists (for the conformance check).
    """

    phase: ClassVar[cb.Phase] = cb.Phase.EXCHANGING
    phase_name: ClassVar[str] = "swapping"
    actions: ClassVar[tuple[type[cb.CustomAction], ...]] = (Swap,)

    giver: Role
    receiver: Role

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.giver, Role) or not isinstance(self.receiver, Role):
            raise cb.RulesetError(
                f"SwapStep: expected two Roles, not {self.giver!r}, {self.receiver!r}"
            )
        if self.giver is self.receiver:
            raise cb.RulesetError(f"SwapStep: {self.giver.value} cannot pass a card to himself")

    def summary(self, terms: Terms) -> str:
        """Say what the step does, for pictures of the ruleset."""
        return f"{self.giver.value} adversary passes a card face down to the {self.receiver.value}"

    def start(self, work: Work) -> bool:
        """Ask the giver for a card, unless he holds none."""
        giver = work.seat(self.giver)
        return bool(work.hand(giver)) and work.ask(giver, self.phase)

    def legal_actions(self, work: Work) -> tuple[cb.Action, ...]:
        """One ``Swap`` per card the giver holds, in card order."""
        return tuple(PASSES[card.index] for card in work.hand(self.giver))

    def apply(self, work: Work, action: cb.Action) -> bool:
        """Move the card from the giver's hand to the receiver's, seen by those two only."""
        giver, receiver = work.seat(self.giver), work.seat(self.receiver)
        if not isinstance(action, Swap):
            raise wrong_kind(work, action, f"pass a card face down to seat {receiver}")
        if action.card not in work.hand(giver):
            raise cb.IllegalActionError(
                action,
                f"seat {giver} cannot pass {action.card} to seat {receiver}: not in his hand",
            )
        work.move(
            action.card,
            places.hand(giver),
            places.hand(receiver),
            seen_by=(giver, receiver),
            words="passed a card face down",
        )
        work.record(giver, action)
        return True


#: The two passes: the adversary after the single player first, then the other.
SWAPS: tuple[Step, ...] = (
    SwapStep(Role.FIRST, Role.SECOND),
    SwapStep(Role.SECOND, Role.FIRST),
)


@attrs.frozen(kw_only=True)
class SwapCavendish(cb.Cavendish):
    """Cavendish's Calabrasella; before the single player asks, the adversaries swap a card.

    The options, the auction, the rest of the exchange and the scoring are Cavendish's.
    """

    name: ClassVar[str] = "cavendish-swap"
    terms: ClassVar[Terms] = Terms(
        title="Calabrasella with a blind swap",
        declarer="single player",
        stock="stock",
        base="difference",
    )

    def exchange_plan(self, contract: cb.Contract) -> tuple[Step, ...]:
        """The two swaps, then Cavendish's ask, give back, discard, expose and take."""
        return (*SWAPS, *super().exchange_plan(contract))


# --- the demonstration ---------------------------------------------------------------


def play_out(state: cb.State, rng: random.Random) -> cb.State:
    """Play random legal actions (each from the mover's own view) until the deal is over.

    Args:
        state: Where to start.
        rng: The random number generator for the choices.

    Returns:
        The finished deal.
    """
    while not state.is_over:
        seat = state.to_move
        assert seat is not None, "this variant has no chance nodes"
        state = cb.apply(state, rng.choice(state.view(seat).legal_actions))
    return state


def outcome(state: cb.State) -> str:
    """Return one line about a finished deal: the swaps, then the result.

    Args:
        state: A finished deal.

    Returns:
        The line.
    """
    result = state.result
    assert result is not None
    if result.void:
        return "all passed: void"
    swaps = [f"seat {seat} passes {a.card}" for seat, a in state.history if isinstance(a, Swap)]
    return (
        f"seat {result.declarer} stands; {', '.join(swaps[:2])}; "
        f"{result.declarer_units}-{result.adversary_units}, payments {result.payments}"
    )


def shown(action: cb.Action | cb.Hidden) -> str:
    """Return a pass as a view shows it: the card, or ``swap (face down)``.

    Args:
        action: An entry of a view's history.

    Returns:
        The words.
    """
    if isinstance(action, Swap):
        return f"{action.card}"
    return str(action)


def tell_swap(rules: cb.Ruleset, seed: int) -> None:
    """Play a deal up to the end of the swap and print it as each seat saw it.

    Args:
        rules: The swap variant.
        seed: The deal's seed; the first seat to speak stands.
    """
    state = cb.new_deal(rules, dealer=0, seed=seed)
    state = cb.apply(state, cb.Bid(cb.Contract.STAND))
    declarer = state.declarer
    assert declarer is not None and state.phase_name == "swapping"
    rng = random.Random(seed)
    start = len(state.history)
    while state.phase is cb.Phase.EXCHANGING:
        state = cb.apply(state, rng.choice(state.legal_actions()))
    print(f"== one swap ({rules.terms.title}, seed {seed}) ==")
    print(f"seat {declarer} stands; before he asks for a 3 his adversaries swap:")
    passes = state.history[start:]
    for seat, action in passes:
        assert isinstance(action, Swap)
        print(f"  seat {seat} passes {action.card} face down")
    for viewer in range(rules.players):
        seen = [shown(action) for _, action in state.view(viewer).history[start:]]
        role = "single player" if viewer == declarer else "adversary"
        print(f"  seat {viewer} ({role}) sees: {', '.join(seen)}")
    print(f"then seat {state.to_move} asks: {', '.join(map(str, state.legal_actions()))}")
    print()


def save_and_load(rules: cb.Ruleset, seed: int) -> None:
    """Play a deal, save it as a record (JSON and text) and read both back; print the swaps.

    The variant and its ``Swap`` must be registered: a record names its rules
    and its actions' kinds, and reading it finds them by name.

    Args:
        rules: The swap variant.
        seed: The deal's seed.
    """
    state = play_out(cb.new_deal(rules, dealer=0, seed=seed), random.Random(seed))
    record = cb.Record.from_state(state)
    data = cb.to_data(record)
    swaps = [a for a in data["actions"] if isinstance(a, dict)]
    assert cb.from_json(cb.to_json(record), cb.Record) == record
    assert cb.Record.from_text(record.to_text()) == record
    assert cb.from_json(cb.to_json(state), cb.State) == state
    lines = [line.strip() for line in record.to_text().splitlines() if ": swap " in line]
    print(f"== a record of seed {seed}: JSON and text read back equal ==")
    print(f"  in JSON: {', '.join(map(str, swaps))}")
    print(f"  in text: {'; '.join(lines)}")
    print()


def main() -> None:
    """Register the variant and its action for the length of the script, play it and check it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=200, help="deals to check (default 200)")
    args = parser.parse_args()

    with cb.registered_ruleset(SwapCavendish), cb.registered_action(Swap):
        rules = cb.find_ruleset("cavendish-swap")
        print(f"== {rules.name}: five seeded deals between random players ==")
        for seed in range(5):
            state = play_out(cb.new_deal(rules, dealer=seed % 3, seed=seed), random.Random(seed))
            print(f"  seed {seed}: {outcome(state)}")
        print()
        tell_swap(rules, seed=7)
        save_and_load(rules, seed=7)

        started = time.perf_counter()
        report: CheckReport = check_ruleset(rules, deals=args.deals)
        seconds = time.perf_counter() - started
        print(f"== check_ruleset({rules.name}, deals={args.deals}): passed in {seconds:.1f}s ==")
        for field in attrs.fields(CheckReport):
            print(f"  {field.name:<16} {getattr(report, field.name)}")
    assert rules.name not in cb.ruleset_names(), "the registration does not outlive the block"
    assert Swap.kind not in cb.action_kinds()


if __name__ == "__main__":
    main()
