"""Many deals between bots, serially or on any ``concurrent.futures.Executor``.

:func:`simulate` plays N deals and returns a :class:`Summary`: the declarer's
win rate by contract, each player's mean payment with a 95% confidence
interval, how often cappotto, stramazzo or the 35-0 double struck, and the
void deals. :meth:`Summary.table` prints it.

**Reproducible anywhere.** Deal ``i`` is played from its own seed,
:func:`deal_seed` of the master seed and ``i`` (a SHA-256 of both, so it does
not depend on N, on the chunking or on the order the deals are played in);
the bots of deal ``i`` are built fresh from their factories with generators
drawn from that seed. Each chunk of deals adds up integer totals, and
integer sums do not care in which order they are added, so the summary is
identical whether the deals run serially, on a process pool, or on a
cluster.

**In parts.** ``simulate(..., first=300)`` plays deals 300 onwards as a run
from 0 would; a :class:`Summary` says which deals it covers (``spans``), and
summaries of one experiment add up (``a + b``) to the summary of one run
over all their deals, so a long run can be played in sessions or machines.

**Executors.** Pass any object with the ``concurrent.futures.Executor``
``submit`` method whose futures ``concurrent.futures.as_completed`` can wait
on: a ``ProcessPoolExecutor``, Dask's ``distributed.Client().get_executor()``,
or a small adapter over Ray. Only a top-level function of this module and
plain picklable data cross the boundary: the ruleset, the bot factories (so
they must be picklable: a class such as :class:`~calabrasella.bots.base.RandomBot`,
a module-level function, or a ``functools.partial`` of one; not a lambda),
the seed and a range of deal numbers. Deals go in chunks (``chunk_size``,
by default about 64 chunks in all, at most 500 deals each) so the cost of
a round trip to a worker is small beside the work. The workers need the
library installed, and the modules that define the bots.

Ray has no ``concurrent.futures`` executor of its own (its
``ray.util.multiprocessing.Pool`` is not one), but a remote task's
``ObjectRef.future()`` is a ``concurrent.futures.Future``, so an adapter of
a few lines serves:

```python
import concurrent.futures
import ray

@ray.remote
def _call(fn, *args):
    return fn(*args)

class RayExecutor(concurrent.futures.Executor):
    def submit(self, fn, /, *args, **kwargs):
        return _call.remote(fn, *args).future()

summary = simulate(rules, factories, 100_000, seed=1, executor=RayExecutor())
```
"""

from __future__ import annotations

import concurrent.futures
import functools
import hashlib
import itertools
import math
import random
from collections.abc import Callable, Iterable, Sequence
from typing import IO, Any, Optional

import attrs

import calabrasella as cb

from .base import Bot, BotError
from .play import _in_simulation, _play_deal, check_factories

__all__ = [
    "BotFactory",
    "ContractStats",
    "PlayerStats",
    "ProgressBar",
    "Summary",
    "bot_name",
    "deal_seed",
    "replay_deal",
    "seating",
    "simulate",
]

#: What :func:`simulate` takes for each player: called with a ``random.Random``,
#: it returns a fresh bot (a bot class such as ``HeuristicBot`` is one).
BotFactory = Callable[[random.Random], Bot]
#: ``progress(done, total)``: deals played so far, and in all.
Progress = Callable[[int, int], None]

_Z95 = 1.959963984540054  # the standard normal's 97.5% quantile
_MAX_CHUNK = 500
_CHUNKS = 64


def deal_seed(seed: int, index: int) -> int:
    """Return the seed deal ``index`` of a simulation with master ``seed`` is played from.

    It depends only on the two numbers (a SHA-256 of both), so one deal of a
    large run can be replayed alone (:func:`replay_deal`).

    Example:
        >>> deal_seed(1, 0) == deal_seed(1, 0) != deal_seed(1, 1)
        True
    """
    digest = hashlib.sha256(f"calabrasella.simulate:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def seating(index: int, players: int, rotate: bool = True) -> tuple[int, tuple[int, ...]]:
    """Return deal ``index``'s dealer and which player sits in each seat.

    The dealer moves on one seat a deal. With ``rotate``, the players also
    change seats: every ``players`` deals they take the next of all the
    orders in which they can sit, so over ``players * players!`` deals
    (18 at three, 96 at four) each player sits in each seat, in each
    position from the dealer and beside each other player equally often.
    Without it, player ``p`` always sits in seat ``p``.

    Example:
        >>> [seating(i, 3) for i in (0, 1, 3)]
        [(0, (0, 1, 2)), (1, (0, 1, 2)), (0, (0, 2, 1))]
    """
    dealer = index % players
    if not rotate:
        return dealer, tuple(range(players))
    orders = _orders(players)
    return dealer, orders[(index // players) % len(orders)]


@functools.cache
def _orders(players: int) -> tuple[tuple[int, ...], ...]:
    return tuple(itertools.permutations(range(players)))


def bot_name(factory: Callable[..., object]) -> str:
    """Return a short name for a bot factory: its ``name`` attribute, else its ``__name__``.

    Example:
        >>> from calabrasella.bots.base import RandomBot
        >>> bot_name(RandomBot), bot_name(functools.partial(RandomBot))
        ('random', 'random')
    """
    name = getattr(factory, "name", None)
    if isinstance(name, str):
        return name
    if isinstance(factory, functools.partial):
        return bot_name(factory.func)
    return str(getattr(factory, "__name__", type(factory).__name__))


# --- totals: what a chunk of deals adds up (plain, picklable, exact) -----------------


class _Totals:
    """Integer totals over some deals; two merge by adding."""

    __slots__ = ("bonuses", "contracts", "deals", "declared", "squares", "sums", "void", "won")

    def __init__(self, players: int) -> None:
        self.deals = 0
        self.void = 0
        self.contracts: dict[str, list[int]] = {}  # name -> [deals, declarer wins]
        self.bonuses: dict[str, int] = {}
        self.sums = [0] * players
        self.squares = [0] * players
        self.declared = [0] * players
        self.won = [0] * players

    def add(self, result: cb.Result, seats: tuple[int, ...]) -> None:
        self.deals += 1
        for seat, payment in enumerate(result.payments):
            player = seats[seat]
            self.sums[player] += payment
            self.squares[player] += payment * payment
        if result.void or result.contract is None or result.declarer is None:
            self.void += 1
            return
        name = result.contract.value
        if result.modifier is not None:
            name += " " + result.modifier.value
        row = self.contracts.setdefault(name, [0, 0])
        row[0] += 1
        row[1] += result.declarer_won
        declarer = seats[result.declarer]
        self.declared[declarer] += 1
        self.won[declarer] += result.declarer_won
        if result.bonus is not None:
            self.bonuses[result.bonus.value] = self.bonuses.get(result.bonus.value, 0) + 1

    @classmethod
    def of(cls, summary: Summary) -> _Totals:
        """The totals ``summary`` was made from."""
        totals = cls(len(summary.players))
        totals.deals, totals.void = summary.deals, summary.void_deals
        totals.contracts = {c.name: [c.deals, c.declarer_wins] for c in summary.contracts}
        totals.bonuses = dict(summary.bonuses)
        for k, p in enumerate(summary.players):
            totals.sums[k], totals.squares[k] = p.total, p.squares
            totals.declared[k], totals.won[k] = p.declared, p.declarer_wins
        return totals

    def merge(self, other: _Totals) -> None:
        self.deals += other.deals
        self.void += other.void
        for name, (deals, wins) in other.contracts.items():
            row = self.contracts.setdefault(name, [0, 0])
            row[0] += deals
            row[1] += wins
        for name, count in other.bonuses.items():
            self.bonuses[name] = self.bonuses.get(name, 0) + count
        for mine, theirs in (
            (self.sums, other.sums),
            (self.squares, other.squares),
            (self.declared, other.declared),
            (self.won, other.won),
        ):
            for k, value in enumerate(theirs):
                mine[k] += value


def replay_deal(
    rules: cb.Ruleset,
    bot_factories: Sequence[BotFactory],
    *,
    seed: int = 1,
    index: int,
    rotate: bool = True,
) -> tuple[cb.State, tuple[int, ...]]:
    """Play deal ``index`` of a simulation alone, exactly as :func:`simulate` plays it.

    The deal's generator is seeded with :func:`deal_seed` ``(seed, index)``;
    each seat's bot is built by its player's factory with a
    ``random.Random`` seeded from that generator (seat 0 first), and the
    deal is then shuffled and played from it by
    :func:`~calabrasella.bots.play.play_deal`.

    Returns:
        The finished state, and which player sat in each seat.

    Raises:
        BotError: Not one factory per player, a bot where a factory belongs, or as :func:`play_deal`.
        IllegalActionError: As :func:`play_deal`; the message also names the
            deal (its number and the master seed) and the player whose bot it was.

    Example:
        >>> import calabrasella as cb
        >>> from calabrasella.bots.base import RandomBot
        >>> final, seats = replay_deal(cb.CAVENDISH, [RandomBot] * 3, seed=1, index=4)
        >>> final.deal.dealer, seats
        (1, (0, 2, 1))
    """
    players = len(bot_factories)
    if players != rules.players:
        raise BotError(f"{rules.players} bot factories needed (one per player), {players} given")
    check_factories(bot_factories, "replay_deal")
    rng = random.Random(deal_seed(seed, index))
    dealer, seats = seating(index, players, rotate)
    bots = [bot_factories[seats[s]](random.Random(rng.getrandbits(64))) for s in range(players)]
    where = functools.partial(_in_simulation, seed, index, seats)  # (for a bot's error)
    return _play_deal(rules, bots, rng, dealer=dealer, where=where), seats


def _play_chunk(
    rules: cb.Ruleset,
    factories: tuple[BotFactory, ...],
    seed: int,
    start: int,
    stop: int,
    rotate: bool,
) -> _Totals:
    """Play deals ``start`` to ``stop - 1`` and add them up (runs in a worker)."""
    totals = _Totals(len(factories))
    for index in range(start, stop):
        state, seats = replay_deal(rules, factories, seed=seed, index=index, rotate=rotate)
        assert state.result is not None
        totals.add(state.result, seats)
    return totals


# --- the summary --------------------------------------------------------------------


@attrs.frozen
class ContractStats:
    """How one contract (with its raise, if any) fared.

    Attributes:
        name: The contract, and the raise if there was one: ``"solo"``,
            ``"solissimo scegliete"``, ``"stand"``.
        deals: Deals played in it.
        declarer_wins: Deals its declarer won.
    """

    name: str
    deals: int
    declarer_wins: int

    @property
    def win_rate(self) -> float:
        """The declarer's share of wins."""
        return self.declarer_wins / self.deals


@attrs.frozen
class PlayerStats:
    """One player's payments over a simulation (each deal counts, void ones as 0).

    Attributes:
        name: The bot's name.
        deals: Deals played.
        total: The sum of its payments.
        squares: The sum of their squares.
        declared: Deals it was the declarer of.
        declarer_wins: Deals it won as the declarer.
    """

    name: str
    deals: int
    total: int
    squares: int
    declared: int
    declarer_wins: int

    @property
    def mean(self) -> float:
        """The mean payment per deal."""
        return self.total / self.deals

    @property
    def stdev(self) -> float:
        """The sample standard deviation of its payments (NaN with fewer than 2 deals)."""
        n = self.deals
        if n < 2:
            return math.nan
        return math.sqrt(max(0.0, (self.squares - self.total * self.total / n) / (n - 1)))

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% confidence interval of the mean payment (normal approximation).

        The deals are independent, so one player's payments are too; the
        three seats' payments within a deal are not (they add up to 0), so
        do not combine players' intervals as if they were.
        """
        half = _Z95 * self.stdev / math.sqrt(self.deals)
        return (self.mean - half, self.mean + half)


def _all_deals(summary: Summary) -> tuple[tuple[int, int], ...]:
    return ((0, summary.deals),) if summary.deals else ()


def _check_spans(summary: Summary, _: object, spans: Any) -> None:
    try:
        good = all(type(x) is int and x >= 0 for span in spans for x in span)
        good = good and all(start < stop for start, stop in spans) and _join(spans) == spans
        good = good and sum(stop - start for start, stop in spans) == summary.deals
    except (BotError, TypeError, ValueError):  # overlapping, or not pairs
        good = False
    if not good:
        raise BotError(
            f"spans={spans!r}: expected sorted (start, stop) ranges of deal numbers, neither "
            f"overlapping nor adjacent, covering deals={summary.deals!r} deals"
        )


def _join(spans: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Sort ranges of deal numbers and join adjacent ones; refuse overlapping ones."""
    joined: list[tuple[int, int]] = []
    for start, stop in sorted(spans):
        if joined and start < joined[-1][1]:
            raise BotError(f"cannot add summaries: deal {start} is in both")
        if joined and start == joined[-1][1]:
            joined[-1] = (joined[-1][0], stop)
        else:
            joined.append((start, stop))
    return tuple(joined)


@attrs.frozen
class Summary:
    """What :func:`simulate` found.

    Summaries of one experiment (rules, seed, rotation, player names) add
    up: ``a + b`` is the summary of one run over the deals of both, in
    either order (``BotError`` if they differ, naming what, or share a deal).

    Attributes:
        rules: The ruleset played.
        seed: The master seed.
        deals: Deals played.
        rotate: Whether the players changed seats.
        players: Each player's figures, in the order of the factories.
        contracts: Each contract played, in the ruleset's order of bids.
        bonuses: How many deals each multiplier struck, as
            ``(Bonus value, count)``: ``"cappotto"``, ``"stramazzo"``,
            ``"all_points"`` (Cavendish's 35-0 double).
        void_deals: Deals everybody passed.
        spans: The deal numbers played, as ranges ``(start, stop)``, sorted,
            adjacent ones joined: ``((300, 600),)`` for ``first=300, deals=300``;
            by default ``((0, deals),)``. (:class:`BotError` if not so.)

    Example:
        >>> import calabrasella as cb
        >>> from calabrasella.bots.base import RandomBot
        >>> head = simulate(cb.CAVENDISH, [RandomBot] * 3, 4, seed=1)
        >>> tail = simulate(cb.CAVENDISH, [RandomBot] * 3, 2, seed=1, first=4)
        >>> tail.spans, (head + tail).spans
        (((4, 6),), ((0, 6),))
        >>> head + tail == simulate(cb.CAVENDISH, [RandomBot] * 3, 6, seed=1)
        True
    """

    rules: cb.Ruleset
    seed: int
    deals: int
    rotate: bool
    players: tuple[PlayerStats, ...]
    contracts: tuple[ContractStats, ...]
    bonuses: tuple[tuple[str, int], ...]
    void_deals: int
    spans: tuple[tuple[int, int], ...] = attrs.field(
        default=attrs.Factory(_all_deals, takes_self=True), validator=_check_spans
    )

    @classmethod
    def _of(
        cls,
        rules: cb.Ruleset,
        seed: int,
        rotate: bool,
        names: Sequence[str],
        totals: _Totals,
        spans: tuple[tuple[int, int], ...],
    ) -> Summary:
        order = {c.value: k for k, c in enumerate(rules.contracts)}
        figures = zip(totals.sums, totals.squares, totals.declared, totals.won)

        def place(name: str) -> tuple[int, str]:
            return (order.get(name.split()[0], len(order)), name)

        return cls(
            rules=rules,
            seed=seed,
            deals=totals.deals,
            rotate=rotate,
            players=tuple(PlayerStats(name, totals.deals, *f) for name, f in zip(names, figures)),
            contracts=tuple(
                ContractStats(name, *totals.contracts[name])
                for name in sorted(totals.contracts, key=place)
            ),
            bonuses=tuple(sorted(totals.bonuses.items())),
            void_deals=totals.void,
            spans=spans,
        )

    def __add__(self, other: Summary) -> Summary:
        """Return ``a + b``: field for field, the summary of one run over the deals of both.

        Raises:
            BotError: They differ in rules, seed, rotation or player names, or share a deal.
        """
        if not isinstance(other, Summary):
            return NotImplemented
        names = tuple(p.name for p in self.players)
        pairs = {
            "rules": (self.rules, other.rules),
            "seed": (self.seed, other.seed),
            "rotate": (self.rotate, other.rotate),
            "player names": (names, tuple(p.name for p in other.players)),
        }
        differ = [f"{what} ({a!r} and {b!r})" for what, (a, b) in pairs.items() if a != b]
        if differ:
            raise BotError(f"cannot add summaries of different runs: {'; '.join(differ)} differ")
        spans = _join(self.spans + other.spans)
        totals = _Totals.of(self)
        totals.merge(_Totals.of(other))
        return Summary._of(self.rules, self.seed, self.rotate, names, totals, spans)

    def table(self) -> str:
        """Return the summary as a plain-text table.

        Example:
            >>> import calabrasella as cb
            >>> from calabrasella.bots.base import RandomBot
            >>> summary = simulate(cb.CAVENDISH, [RandomBot] * 3, 6, seed=1)
            >>> print(summary.table().splitlines()[0])
            cavendish: 6 deals, seed 1, seats rotated

        Deals other than ``0`` to ``deals - 1`` are listed by number:

            >>> later = simulate(cb.CAVENDISH, [RandomBot] * 3, 6, seed=1, first=10)
            >>> print(later.table().splitlines()[0])
            cavendish: 6 deals, nos. 10-15, seed 1, seats rotated
        """
        rotation = "seats rotated" if self.rotate else "fixed seats"
        nos = ", ".join(f"{a}-{b - 1}" if b - a > 1 else str(a) for a, b in self.spans)
        deals = f"{self.deals} deals" + (
            "" if self.spans == ((0, self.deals),) else f", nos. {nos}"
        )
        lines = [f"{self.rules.name}: {deals}, seed {self.seed}, {rotation}", ""]
        width = max(
            [6, *(len(p.name) + 2 for p in self.players), *(len(c.name) for c in self.contracts)]
        )
        width += 2
        lines.append(f"{'player':<{width}} {'mean':>8}   {'95% CI':<19} {'declared':>8} {'won':>7}")
        for k, p in enumerate(self.players):
            low, high = p.ci95
            ci = "n/a" if math.isnan(low) else f"[{low:+.2f}, {high:+.2f}]"
            won = f"{p.declarer_wins / p.declared:.1%}" if p.declared else "-"
            lines.append(
                f"{f'{k} {p.name}':<{width}} {p.mean:>+8.2f}   {ci:<19} {p.declared:>8} {won:>7}"
            )
        lines += ["", f"{'contract':<{width}} {'deals':>8}   {'declarer won':>12}"]
        for c in self.contracts:
            lines.append(f"{c.name:<{width}} {c.deals:>8}   {c.win_rate:>12.1%}")
        lines.append("")
        struck = ", ".join(
            f"{name.replace('_', ' ')} {count} ({count / self.deals:.1%})"
            for name, count in self.bonuses
        )
        lines.append(f"multipliers: {struck or 'none'}")
        lines.append(f"void deals: {self.void_deals} ({self.void_deals / self.deals:.1%})")
        return "\n".join(lines)


# --- running -------------------------------------------------------------------------


def simulate(
    rules: cb.Ruleset,
    bot_factories: Sequence[BotFactory],
    deals: int,
    *,
    seed: int = 1,
    executor: Optional[concurrent.futures.Executor] = None,
    rotate: bool = True,
    progress: Optional[Progress] = None,
    chunk_size: Optional[int] = None,
    names: Optional[Sequence[str]] = None,
    first: int = 0,
) -> Summary:
    """Play ``deals`` deals between bots and return their :class:`Summary`.

    Deal ``i`` is played from :func:`deal_seed` ``(seed, i)`` with fresh bots
    built by the factories, the dealer and the seats as :func:`seating`
    gives; the summary is the same serially and on any executor.

    Args:
        rules: The ruleset.
        bot_factories: One factory per player (``rules.players`` of them):
            called with a ``random.Random``, it returns a new bot. Bot
            classes (``RandomBot``, ``HeuristicBot``) are factories. They
            must be picklable to go to an executor.
        deals: How many deals (at least 1).
        seed: The master seed (an int; 1 by default, as the command's).
        executor: Where to play the chunks (``None``: here, in order).
        rotate: Whether the players change seats (see :func:`seating`).
        progress: Called as ``progress(done, total)`` after each chunk.
        chunk_size: Deals per chunk (default: about 64 chunks, at most 500 each).
        names: The players' names in the table (default: :func:`bot_name`).
        first: The number of the first deal: deals ``first`` to
            ``first + deals - 1`` are played, each as a run from 0 plays it,
            so runs of consecutive parts add up (``a + b``) to one run.

    Returns:
        The summary.

    Raises:
        BotError: Not one factory (or name) per player, a bot where a factory
            belongs, ``deals`` or ``chunk_size`` below 1, or ``first`` below 0.
        SeedError: ``seed`` is not an int.

    Example:
        >>> import calabrasella as cb
        >>> from calabrasella.bots.base import RandomBot
        >>> summary = simulate(cb.CALABRESELLA, [RandomBot] * 3, 30, seed=7)
        >>> summary.deals, sum(p.total for p in summary.players)
        (30, 0)
    """
    factories = tuple(bot_factories)
    players = rules.players
    if len(factories) != players:
        raise BotError(f"{players} bot factories needed (one per player), {len(factories)} given")
    check_factories(factories, "simulate")
    if type(deals) is not int or deals < 1:
        raise BotError(f"deals={deals!r}: expected an int, at least 1")
    if type(first) is not int or first < 0:
        raise BotError(f"first={first!r}: expected an int, at least 0 (a deal number)")
    if type(seed) is not int:
        raise cb.SeedError(f"seed={seed!r}: expected an int")
    labels = tuple(names) if names is not None else tuple(bot_name(f) for f in factories)
    if len(labels) != players:
        raise BotError(f"{players} names needed, {len(labels)} given")
    size = chunk_size if chunk_size is not None else min(_MAX_CHUNK, -(-deals // _CHUNKS))
    if type(size) is not int or size < 1:
        raise BotError(f"chunk_size={chunk_size!r}: expected an int, at least 1")
    end = first + deals
    spans = [(start, min(start + size, end)) for start in range(first, end, size)]
    totals = _Totals(players)
    done = 0
    if executor is None:
        for start, stop in spans:
            totals.merge(_play_chunk(rules, factories, seed, start, stop, rotate))
            done += stop - start
            if progress is not None:
                progress(done, deals)
    else:
        futures = {
            executor.submit(_play_chunk, rules, factories, seed, start, stop, rotate): stop - start
            for start, stop in spans
        }
        for future in concurrent.futures.as_completed(futures):
            totals.merge(future.result())
            done += futures[future]
            if progress is not None:
                progress(done, deals)
    return Summary._of(rules, seed, rotate, labels, totals, ((first, end),))


class ProgressBar:
    """A text progress bar to pass as :func:`simulate`'s ``progress``.

    Each call redraws one line on ``stream`` (``\\r``, no newline until the end).

    Args:
        stream: Where to draw (a text stream such as ``sys.stderr``).
        width: The bar's width in characters.

    Example:
        >>> import io
        >>> out = io.StringIO()
        >>> bar = ProgressBar(out, width=10)
        >>> bar(5, 10); bar(10, 10)
        >>> out.getvalue().split("\\r")[-1]
        '[##########] 10/10 deals\\n'
    """

    def __init__(self, stream: IO[str], width: int = 30) -> None:
        self.stream = stream
        self.width = width

    def __call__(self, done: int, total: int) -> None:
        filled = self.width * done // total
        bar = "#" * filled + "." * (self.width - filled)
        end = "\n" if done >= total else ""
        self.stream.write(f"\r[{bar}] {done}/{total} deals{end}")
        self.stream.flush()
