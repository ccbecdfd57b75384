"""The table's clocks: seconds per move, and a time bank per player for the whole match."""

from __future__ import annotations

from collections.abc import Sequence

Position = tuple[int, int]


class Clocks:
    """A move clock and a per-match time bank for each seat, on the event loop's time.

    A connected player to move has until the earlier of its move's deadline
    (``move_time`` after the move began) and the end of its bank (what is
    left of ``match_time`` for the match). Only the time it was to move and
    connected is taken from its bank. When either runs out the table's bot
    moves for it; once its bank is empty, the bot makes each of its moves at
    once, for the rest of the match.

    Example:
        >>> clocks = Clocks(move_time=10.0, match_time=3.0, seats=3)
        >>> clocks.start((1, 0), seat=0, now=100.0)
        3.0
        >>> clocks.charge(now=101.0)
        >>> clocks.banks_at(now=101.0)
        [2.0, 3.0, 3.0]
        >>> clocks.start((1, 1), seat=0, now=105.0), clocks.ran_out((1, 1), now=107.0)
        (2.0, 'match')
    """

    def __init__(self, move_time: float | None, match_time: float | None, seats: int) -> None:
        """Start with full banks.

        Args:
            move_time: Seconds for each move, or ``None``.
            match_time: Seconds each player has for all its moves in a match, or ``None``.
            seats: The number of seats.
        """
        self.move_time = move_time
        self.match_time = match_time
        self.seats = seats
        self.banks: list[float] | None = None
        self._deadline: tuple[Position, float] | None = None
        self._turn: tuple[Position, int, float] | None = None
        self.reset()

    @property
    def running(self) -> bool:
        """Whether there is any clock."""
        return self.move_time is not None or self.match_time is not None

    def reset(self, banks: Sequence[float] | None = None) -> None:
        """A new match: full banks (or ``banks``, as saved), no move under way."""
        if self.match_time is not None:
            full = [self.match_time] * self.seats
            self.banks = [float(b) for b in banks] if banks is not None else full
        self._deadline = None
        self._turn = None

    def start(self, key: Position, seat: int, now: float) -> float | None:
        """``seat`` is to move at ``key`` and connected: return the seconds it has (None: no limit).

        The move's deadline is kept while the position stays (a player who
        leaves and comes back does not get a new one); its bank runs from now.
        """
        if not self.running:
            return None
        if self._turn is not None and self._turn[:2] != (key, seat):
            self.charge(now)
        if self._turn is None:
            self._turn = (key, seat, now)
        waits = []
        if self.move_time is not None:
            if self._deadline is None or self._deadline[0] != key:
                self._deadline = (key, now + self.move_time)
            waits.append(self._deadline[1] - now)
        if self.banks is not None:
            waits.append(self.banks[seat] - (now - self._turn[2]))
        return max(0.0, min(waits))

    def charge(self, now: float) -> None:
        """The move under way ended (made, timed out, or its player left): take its time."""
        if self._turn is not None and self.banks is not None:
            _key, seat, started = self._turn
            self.banks[seat] = max(0.0, self.banks[seat] - (now - started))
        self._turn = None

    def take(self, seat: int, seconds: float) -> None:
        """Take ``seconds`` from ``seat``'s bank (time it was away past its grace while to move).

        Example:
            >>> clocks = Clocks(move_time=None, match_time=3.0, seats=3)
            >>> clocks.take(1, 2.5)
            >>> clocks.banks
            [3.0, 0.5, 3.0]
        """
        if self.banks is not None and seconds > 0:
            self.banks[seat] = max(0.0, self.banks[seat] - seconds)

    def ran_out(self, key: Position, now: float) -> str:
        """Which clock ran out for the move at ``key``: ``"match"`` (the bank) or ``"move"``."""
        if self.banks is not None and self._turn is not None and self._turn[0] == key:
            _key, seat, started = self._turn
            if self.banks[seat] - (now - started) <= 1e-3:
                return "match"
        return "move"

    def move_left(self, key: Position, now: float) -> float | None:
        """Seconds left for the move at ``key``: the move's clock if it runs, else ``move_time``."""
        if self._deadline is not None and self._deadline[0] == key:
            return round(max(0.0, self._deadline[1] - now), 3)
        return self.move_time

    def banks_at(self, now: float) -> list[float] | None:
        """Each seat's bank as it stands now (the move under way counted), or ``None``."""
        if self.banks is None:
            return None
        banks = list(self.banks)
        if self._turn is not None:
            _key, seat, started = self._turn
            banks[seat] = max(0.0, banks[seat] - (now - started))
        return [round(bank, 3) for bank in banks]
