"""A variant whose exchange step moves a stock card unseen: Cavendish's Calabrasella with a blind draw.

The house rule: once a player has stood, the adversary after him draws one
card of the stock at random, which only he sees; then he lays one card of his
hand aside face down (it counts with the stock). The others see "drew a card
from the stock unseen" and "discarded a card face down". Then the exchange
goes on as Cavendish wrote it (ask, give back, discard, expose, take), but the
single player discards at most three: three cards are left to take.

Nothing in the package knows about the blind draw. :class:`BlindDrawStep` is
a :class:`calabrasella.rulesets.steps.Step` written here: chance draws the
card (one ``Draw`` per stock card, equally likely), and the step moves it with
``Work.move``, seen by the drawer alone. The lay-aside is the built-in
``DiscardStep``. The package's sampler follows the draw through its recorded
move like any other: every world of a view is equally likely, and each gives
the view back. The script plays a few seeded deals, tells a draw as each seat
saw it, counts the worlds of a view, and runs the conformance check
(:func:`calabrasella.testing.check_ruleset`) on the variant.

usage: python examples/blind_draw_variant.py [--deals N]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import ClassVar

import attrs

import calabrasella as cb
from calabrasella import places
from calabrasella.bots import Sampler
from calabrasella.rulesets import Terms
from calabrasella.rulesets.steps import (
    CallStep,
    DiscardStep,
    ExposeStep,
    GiveBackStep,
    Role,
    Step,
    TakeStep,
    Work,
    draw_outcome,
    wrong_kind,
)
from calabrasella.testing import check_ruleset

#: What the other seats are told of the draw.
WORDS = "drew a card from the stock unseen"


@attrs.frozen
class BlindDrawStep(Step):
    """Chance: the seat playing ``role`` draws one stock card, seen by it alone.

    Skipped when the stock holds no card it may draw.

    Attributes:
        role: Who draws.
    """

    phase: ClassVar[cb.Phase] = cb.Phase.DRAWING
    phase_name: ClassVar[str] = "drawing blind"

    role: Role

    def summary(self, terms: Terms) -> str:
        """Say what the step does, for pictures of the ruleset."""
        return f"{self.role.value} adversary draws a card from the {terms.stock} unseen"

    @staticmethod
    def _drawable(work: Work) -> int:
        return work.stock & ~work.laid_down()

    def start(self, work: Work) -> bool:
        """Ask chance for the card, unless the stock holds none."""
        return bool(self._drawable(work)) and work.ask(None, cb.Phase.DRAWING)

    def legal_actions(self, work: Work) -> tuple[cb.Action, ...]:
        """One ``Draw`` of one card per stock card, in card order (equally likely)."""
        cards = self._drawable(work)
        return tuple(draw_outcome(1 << card.index) for card in cb.CardSet(cards))

    def apply(self, work: Work, action: cb.Action) -> bool:
        """Move the card from the stock to the drawer's hand, seen by the drawer alone."""
        seat = work.seat(self.role)
        if not isinstance(action, cb.Draw):
            raise wrong_kind(work, action, "draw a card blind (a chance outcome)")
        if len(action.cards) != 1 or action.cards.mask & ~self._drawable(work):
            raise cb.IllegalActionError(action, f"a blind draw is one stock card, not {action.cards}")
        work.move(action.cards, places.STOCK, places.hand(seat), seen_by=(seat,), words=WORDS)
        work.record(seat, action)
        return True


@attrs.frozen(kw_only=True)
class BlindDrawCavendish(cb.Cavendish):
    """Cavendish's Calabrasella; once the single player stands, the first adversary draws
    a card blind and lays one aside. The options, the auction and the scoring are Cavendish's.
    """

    name: ClassVar[str] = "cavendish-blind-draw"
    terms: ClassVar[Terms] = Terms(
        title="Calabrasella with a blind draw",
        declarer="single player",
        stock="stock",
        base="difference",
    )

    def exchange_plan(self, contract: cb.Contract) -> tuple[Step, ...]:
        """The blind draw and the lay-aside, then Cavendish's ask, give back, discard
        (one to three), expose and take."""
        return (
            BlindDrawStep(Role.FIRST),
            DiscardStep(Role.FIRST, 1, 1),
            CallStep(),
            GiveBackStep(face_up=False),
            DiscardStep(Role.DECLARER, 1, 3),
            ExposeStep(),
            TakeStep(Role.DECLARER, "as_discarded"),
        )


# --- the demonstration ---------------------------------------------------------------


def play_out(state: cb.State, rng: random.Random) -> cb.State:
    """Play random legal actions (chance's drawn at random) until the deal is over.

    Args:
        state: Where to start.
        rng: The random number generator for the choices.

    Returns:
        The finished deal.
    """
    while not state.is_over:
        chance = state.is_chance
        state = cb.apply(
            state, cb.sample_chance(state, rng) if chance else rng.choice(state.legal_actions())
        )
    return state


def tell_draw(rules: cb.Ruleset, seed: int) -> None:
    """Play a deal up to the end of the draw and the lay-aside, and print it as each seat saw it.

    Args:
        rules: The blind-draw variant.
        seed: The deal's seed; the first seat to speak stands.
    """
    state = cb.apply(cb.new_deal(rules, dealer=0, seed=seed), cb.Bid(cb.Contract.STAND))
    rng = random.Random(seed)
    while state.phase is not cb.Phase.CALLING:
        state = cb.apply(
            state, cb.sample_chance(state, rng) if state.is_chance else state.legal_actions()[0]
        )
    print(f"== one blind draw ({rules.terms.title}, seed {seed}) ==")
    for viewer in range(rules.players):
        seen = [str(move) for move in state.view(viewer).moves]
        print(f"  seat {viewer} sees: {'; '.join(seen)}")
    view = state.view(state.declarer or 0)
    print(f"  the single player's view has {Sampler(view).count:,} worlds, each equally likely")
    print()


def main() -> None:
    """Play the variant, tell a draw, and check it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=200, help="deals to check (default 200)")
    args = parser.parse_args()
    rules = BlindDrawCavendish()
    print(f"== {rules.name}: five seeded deals between random players ==")
    for seed in range(5):
        result = play_out(cb.new_deal(rules, dealer=seed % 3, seed=seed), random.Random(seed)).result
        assert result is not None
        print(f"  seed {seed}: payments {result.payments}")
    print()
    tell_draw(rules, seed=7)
    started = time.perf_counter()
    report = check_ruleset(rules, deals=args.deals)
    seconds = time.perf_counter() - started
    print(f"== check_ruleset({rules.name}, deals={args.deals}): passed in {seconds:.1f}s ==")
    print(f"  {report}")


if __name__ == "__main__":
    main()
