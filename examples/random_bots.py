"""Play seeded deals of each preset between random bots and print the ledger.

Every bot sees only its own view (``state.view(seat)``) and picks uniformly
among the view's legal actions; chance nodes (dividete's unseen draw) are
drawn with :func:`calabrasella.sample_chance`. The dealer rotates every deal.
The same seed prints the same ledger on every machine.

usage: python examples/random_bots.py [--deals N] [--seed S]
"""

from __future__ import annotations

import argparse
import random

import calabrasella as cb


class RandomBot:
    """A player that picks uniformly among the legal actions of its view."""

    def __init__(self, rng: random.Random) -> None:
        """Create a bot drawing from ``rng``.

        Args:
            rng: The random number generator the bot's choices come from.
        """
        self.rng = rng

    def choose(self, view: cb.View) -> cb.Action:
        """Return one of the view's legal actions, uniformly at random.

        Args:
            view: What the seat to move may know; its ``legal_actions`` is not empty.

        Returns:
            The chosen action.
        """
        return self.rng.choice(view.legal_actions)


def play_deal(rules: cb.Ruleset, dealer: int, rng: random.Random) -> cb.Result:
    """Play one deal between random bots and return its result.

    Args:
        rules: The ruleset to play.
        dealer: The dealer's seat.
        rng: Shuffles the pack, drives the bots and draws chance outcomes.

    Returns:
        The result of the finished deal.
    """
    bots = [RandomBot(rng) for _ in range(rules.players)]
    state = cb.new_deal(rules, dealer=dealer, seed=rng)
    while not state.is_over:
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, rng))
            continue
        seat = state.to_move
        assert seat is not None
        action = bots[seat].choose(state.view(seat))
        state = cb.apply(state, action)
    assert state.result is not None
    return state.result


def describe(result: cb.Result) -> str:
    """Return a short description of a deal's outcome.

    Args:
        result: The result of a finished deal.

    Returns:
        Who declared what, the units of each side and the bonus, if any.
    """
    if result.void or result.contract is None:
        return "all passed: void"
    contract = result.contract.value
    if result.modifier is not None:
        contract += f"+{result.modifier.value}"
    text = (
        f"seat {result.declarer} {contract}, "
        f"{result.declarer_units}-{result.adversary_units} "
        f"{'won' if result.declarer_won else 'lost'}"
    )
    if result.bonus is not None:
        text += f" ({result.bonus.value})"
    return text


def ledger(rules: cb.Ruleset, deals: int, seed: int) -> list[int]:
    """Print one line per deal with the payments and running totals; return the totals.

    Args:
        rules: The ruleset to play.
        deals: How many deals to play.
        seed: The seed of the whole session.

    Returns:
        Each seat's total, seat 0 first.
    """
    rng = random.Random(seed)
    totals = [0] * rules.players
    seats = "".join(f"{f'seat {s}':>9}" for s in range(rules.players))
    print(f"== {rules.name}: {deals} deals, seed {seed} ==")
    print(f"{'deal':>4} {'dealer':>6}  {'outcome':<50}{seats}")
    for number in range(deals):
        dealer = number % rules.players
        result = play_deal(rules, dealer, rng)
        assert sum(result.payments) == 0
        totals = [t + p for t, p in zip(totals, result.payments, strict=True)]
        payments = "".join(f"{p:>+9d}" if p else f"{0:>9d}" for p in result.payments)
        print(f"{number + 1:>4} {dealer:>6}  {describe(result):<50}{payments}")
    print(f"{'':>4} {'':>6}  {'totals':<50}{''.join(f'{t:>+9d}' for t in totals)}")
    print()
    return totals


def main() -> None:
    """Play the deals of each preset ruleset and print their ledgers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=12, help="deals per ruleset (default 12)")
    parser.add_argument("--seed", type=int, default=2024, help="session seed (default 2024)")
    args = parser.parse_args()
    for rules in (cb.CAVENDISH, cb.CALABRESELLA):
        totals = ledger(rules, args.deals, args.seed)
        assert sum(totals) == 0, "payments always add up to zero"


if __name__ == "__main__":
    main()
