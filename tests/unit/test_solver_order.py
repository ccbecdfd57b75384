"""The order in which the solver tries cards: hand-checked cases of card play.

The order never changes a result (the solver's other tests check results
against brute force); it decides how soon a cut comes, so how many
positions a solve searches. These cases pin the plays a card player tries
first, from ``calabrasella.bots._solver_moves``. Suit numbering as in
:attr:`calabrasella.Card.index`: diamonds are cards 0 to 9, hearts 10 to
19, strongest first (3 2 A K Q J 7 6 5 4).
"""

from __future__ import annotations

import pytest

import calabrasella as cb
from calabrasella.bots import _solver_core as core
from calabrasella.bots import _solver_moves as moves

INDEX = {card.code: card.index for card in cb.DECK}


def mask(text: str) -> int:
    """The 10-bit mask, within its suit, of the cards named in ``text``."""
    found = 0
    for code in text.split():
        found |= 1 << INDEX[code] % 10
    return found


def names(cards: tuple[int, ...]) -> list[str]:
    return [cb.DECK[c].code for c in cards]


def test_second_hand_wins_with_the_cheapest_sure_winner() -> None:
    """An adversary leads the queen of diamonds, his partner (last to play)
    has no diamond, and the declarer holds the 3 and the king. Both win the
    trick; the king wins it as surely and keeps the 3, so it comes first.
    The 2, in the leader's hand, keeps the two cards apart (else they would
    be one card to the search)."""
    key = (
        0  # diamonds
        | mask("3d Kd") << 2  # the declarer's diamonds
        | 0 << 12  # the last hand's: none
        | INDEX["Qd"] << 22  # the card led
        | 1 << 26  # the declarer plays second
        | mask("2d") << 28  # the leader's other diamonds
    )
    assert names(moves.seconds(key)) == ["Kd", "3d"]


def test_second_hand_still_takes_the_most_units_first() -> None:
    """The jack led, the king in the leader's hand: with the ace and the
    queen, both sure to win, the ace's 3 units are taken first: units come
    before cheapness."""
    key = 0 | mask("Ad Qd") << 2 | INDEX["Jd"] << 22 | 1 << 26 | mask("Kd") << 28
    assert names(moves.seconds(key)) == ["Ad", "Qd"]


def discard_order(*parts: tuple[int, str, str], mode: int) -> list[str]:
    """The order of a hand's discards: ``parts`` are (suit, the hand's cards,
    the other hands' cards) for each suit it holds; ``mode`` 1: the trick
    goes to the other side, 2: to the hand's own side."""
    keyed: list[int] = []
    for suit, mine, out in parts:
        keyed += moves._discard_part(suit | mask(mine) << 2 | mask(out) << 12 | mode << 22)
    return names(moves.decode(keyed))


def test_no_sure_winner_thrown_on_the_partners_trick() -> None:
    """A hand that cannot follow throws cards on a trick its side wins: the
    most units first, but not the ace of hearts, which is above every heart
    left and will win a trick of its own: the queen goes first."""
    assert discard_order((1, "Ah Qh", "Kh 7h"), mode=2) == ["Qh", "Ah"]


def test_the_most_units_first_on_the_partners_trick() -> None:
    """Below the 3 of hearts the ace is no sure winner: its 3 units are
    thrown first."""
    assert discard_order((1, "Ah Qh", "3h Kh"), mode=2) == ["Ah", "Qh"]


def test_a_singleton_goes_first_among_cards_of_no_units() -> None:
    """A hand throws on a trick the other side wins: the fewest units first,
    and among cards of no units the lone 7 of hearts (its discard leaves a
    void) before the 5 of diamonds, though the 5 is lower."""
    order = discard_order((0, "Kd 5d", "Ad"), (1, "7h", "Ah"), mode=1)
    assert order == ["7h", "5d"]


def test_a_singleton_that_wins_keeps_its_place() -> None:
    """The lone 7 of hearts above the 4 (the only other heart) is a sure
    winner: no singleton's place for it, the lower 5 of diamonds goes first."""
    order = discard_order((0, "Kd 5d", "Ad"), (1, "7h", "4h"), mode=1)
    assert order == ["5d", "7h"]


def test_second_hand_ducks_when_the_partner_can_take_the_trick() -> None:
    """The declarer leads the queen of diamonds; the second hand holds the 3
    (sure to win) and the 5, and his partner, last to play, the ace, which
    beats the queen. The 5 comes first: the partner takes the trick with the
    ace and the 3 stays a winner for later."""
    key = (
        0  # diamonds
        | mask("3d 5d") << 2  # the second hand's diamonds
        | mask("Ad") << 12  # the last hand's: the partner's
        | INDEX["Qd"] << 22  # the card led
        | 0 << 26  # the declarer led
    )
    assert names(moves.seconds(key)) == ["5d", "3d"]


def test_second_hand_still_wins_when_the_partner_cannot() -> None:
    """As above, but the partner's best diamond is the jack, below the queen:
    the 3 wins the trick for the side and comes first."""
    key = 0 | mask("3d 5d") << 2 | mask("Jd") << 12 | INDEX["Qd"] << 22 | 0 << 26
    assert names(moves.seconds(key)) == ["3d", "5d"]


def test_discards_load_the_trick_the_partner_can_take() -> None:
    """The declarer led and the partner, last to play, can beat his card (mode
    3): the second hand, void in the suit led, throws the most units first,
    as on a trick its side wins, but keeps every card in play, since the
    partner may still let the trick go. The three hearts, one block under the
    3, are all searched; were the trick surely the side's (mode 2), the ace
    would stand for the block."""
    assert discard_order((1, "Ah Kh 4h", "3h"), mode=3) == ["Ah", "Kh", "4h"]
    assert discard_order((1, "Ah Kh 4h", "3h"), mode=2) == ["Ah"]
    assert discard_order((1, "Ah Kh 4h", "3h"), mode=0) == ["4h", "Kh", "Ah"]


def test_the_search_asks_for_mode_3_after_the_declarers_lead() -> None:
    """Through the search itself: the declarer leads the queen of diamonds,
    the first adversary has no diamond and the second holds the ace. The
    first adversary's hearts come most units first."""
    from calabrasella.bots._solver_core import Search

    def hand(text: str) -> int:
        return sum(1 << INDEX[code] for code in text.split())

    hands = (hand("Kd 3s"), hand("Ah Kh 4h"), hand("Ad 5d 3h"))  # after the lead of Qd
    order = Search(3, True).candidates(hands, 0, (INDEX["Qd"],))
    assert names(order) == ["Ah", "Kh", "4h"]


def _search_value(state: cb.State, history: bool) -> tuple[int, int]:
    """The declarer's final units and the nodes, by one Search from a trick's start."""
    from calabrasella.bots.solver import _root

    root = _root(state, "solve")
    assert not root.trick and not root.net_revokes
    search = core.Search(root.search.bonus, root.search.follow, history=history)
    return root.won + search.value(*root.hands, root.leader), search.nodes


@pytest.mark.parametrize("seed", [202, 203])
def test_history_ordering_against_a_plain_alpha_beta(seed: int) -> None:
    """Six tricks left (the first trick's leads ordered by their history): the search's
    units are the plain alpha-beta's (tests/unit/test_solver_options.py)."""
    from test_solver_options import alphabeta, random_play_state

    state = random_play_state((cb.CAVENDISH, cb.CALABRESELLA)[seed % 2], seed, 6)
    assert core.HISTORY_FROM <= 6
    assert _search_value(state, True)[0] == alphabeta(state, -1, 36)


def test_history_ordering_changes_the_speed_only() -> None:
    """Eight tricks left: the same units with the history as without it (the order
    the search used before), over other numbers of nodes on some of the deals."""
    from test_solver_options import random_play_state

    differ = 0
    for seed in range(6):
        state = random_play_state((cb.CAVENDISH, cb.CALABRESELLA)[seed % 2], 300 + seed, 8)
        (value, nodes), (plain, plain_nodes) = (
            _search_value(state, True),
            _search_value(state, False),
        )
        assert value == plain, seed
        differ += nodes != plain_nodes
    assert differ  # the history is used
