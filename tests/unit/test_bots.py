"""Bots: the interface, play_deal, and the heuristic bot's decisions in hand-built positions.

Each heuristic position pins one piece of advice from seed 000's "Suggestions
for Good Play" (or a plain rule of the game: nobody need win a trick); the
expected card follows from the advice, not from running the bot.
"""

from __future__ import annotations

import random

import pytest
from support import load_example

import calabrasella as cb
from calabrasella.bots.base import IRREGULAR, Bot, BotError, RandomBot, regular_actions
from calabrasella.bots.heuristic import HeuristicBot
from calabrasella.bots.play import play_deal

# --- hand-built positions -------------------------------------------------------------

# A Calabresella deal, dealer 0: seat 1 (eldest) bids solissimo and leads.
DEAL_A = (
    "Ad 5d 5h 4h Js 6s 5s 4s 7c 6c 5c 4c",  # seat 0, adversary (plays after seat 2)
    "4d 3h 2h Ah Kh Qh Jh 3s 2s As 3c 2c",  # seat 1, the declarer
    "3d 7d 6d 7h 6h Ks Qs 7s Ac Kc Qc Jc",  # seat 2, adversary (plays right after him)
)
STOCK_A = "2d Kd Qd Jd"


def solissimo(hands: tuple[str, ...], stock: str, *plays: str) -> cb.State:
    """Seat 1 bids solissimo and does not raise; then ``plays`` are played in turn."""
    state = cb.deal_from(cb.CALABRESELLA, list(hands), stock)
    state = cb.apply(state, cb.Bid(cb.Contract.SOLISSIMO))
    state = cb.apply(state, cb.Pass())  # no raise
    for card in plays:
        state = cb.apply(state, cb.Play(cb.Card.parse(card)))
    return state


def choice(state: cb.State, seed: int = 0) -> cb.Action:
    """What the heuristic bot of the seat to move chooses."""
    assert state.to_move is not None
    return HeuristicBot(seed).choose(state.view(state.to_move))


def test_an_adversary_throws_its_ace_on_a_trick_its_partner_surely_wins() -> None:
    """Seed 000: "discard counting cards on partner's tricks, Aces especially"."""
    state = solissimo(DEAL_A, STOCK_A, "4d", "3d")  # the 3 cannot be beaten
    assert choice(state) == cb.Play(cb.Card.parse("Ad"))  # not the 5d


def test_an_adversary_void_in_the_suit_led_throws_an_ace_that_is_not_the_best() -> None:
    """Seed 000: Aces "which are not the best of the suit, but count the most"."""
    hands = (
        "Jh 5h 4h Js 6s 5s 4s Ac 7c 6c 5c 4c",  # seat 0: no coins; the Ac is below 3c 2c
        "4d 5d 3h 2h Ah Kh Qh 3s 2s As 3c 2c",
        "3d 2d 7d 6d 7h 6h Ks Qs 7s Kc Qc Jc",
    )
    state = solissimo(hands, "Ad Kd Qd Jd", "4d", "3d")
    assert choice(state) == cb.Play(cb.Card.parse("Ac"))


def test_a_player_who_cannot_win_follows_with_the_lowest_card() -> None:
    """Nobody is obliged to win a trick: losing it, keep the counting cards (not the Js)."""
    state = solissimo(DEAL_A, STOCK_A, "3s", "7s")  # seat 0 holds Js 6s 5s 4s
    assert choice(state) == cb.Play(cb.Card.parse("4s"))


def test_the_single_player_wins_with_the_cheapest_card_that_surely_wins() -> None:
    """Holding 3 2 A of the suit led, the ace wins as surely as the 3: play the ace."""
    # trick 1: 4d, 6d, Ad (seat 0 wins); seat 0 leads 4s, the single player is second
    state = solissimo(DEAL_A, STOCK_A, "4d", "6d", "Ad", "4s")
    assert state.to_move == 1
    assert choice(state) == cb.Play(cb.Card.parse("As"))


def test_the_last_adversary_does_not_waste_honours_on_a_trick_he_cannot_win() -> None:
    """After the single player's As, seat 2 (Ks Qs 7s) plays the 7s."""
    state = solissimo(DEAL_A, STOCK_A, "4d", "6d", "Ad", "4s", "As")
    assert choice(state) == cb.Play(cb.Card.parse("7s"))


def test_an_adversary_leads_his_long_suit_through_the_single_player() -> None:
    """Seed 000: adversaries lead "long suits through him" (he plays next)."""
    state = solissimo(DEAL_A, STOCK_A, "4d", "6d", "Ad")  # seat 0 won; seat 1 plays next
    assert state.to_move == 0
    action = choice(state)
    assert isinstance(action, cb.Play)
    assert action.card.suit is cb.Suit.SWORDS  # four swords (batons too; swords first)


def test_an_adversary_leads_his_short_suit_up_to_the_single_player() -> None:
    """Seed 000: adversaries lead "short suits up to him" (he plays last)."""
    hands = (DEAL_A[2], DEAL_A[1], DEAL_A[0])  # the same hand now sits in seat 2
    state = solissimo(hands, STOCK_A, "4d", "Ad", "6d")  # seat 2 won; seat 0 plays next
    assert state.to_move == 2
    assert choice(state) == cb.Play(cb.Card.parse("5d"))  # the singleton


def test_a_hand_of_all_the_top_cards_bids_solissimo_and_raises() -> None:
    """Bids follow hand strength: the twelve best cards are worth the highest stake."""
    top = "3d 2d Ad 3h 2h Ah 3s 2s As 3c 2c Ac"
    rest = [c.code for c in cb.DECK if c.code not in top.split()]
    state = cb.deal_from(
        cb.CALABRESELLA, [" ".join(rest[:12]), top, " ".join(rest[12:24])], " ".join(rest[24:])
    )
    assert choice(state) == cb.Bid(cb.Contract.SOLISSIMO)
    state = cb.apply(state, cb.Bid(cb.Contract.SOLISSIMO))
    assert choice(state) == cb.Raise(cb.Modifier.SCEGLIETE)


def test_a_hand_without_a_counting_card_passes() -> None:
    """A hand of sevens to fours neither stands nor bids."""
    junk = "7d 6d 5d 4d 7h 6h 5h 4h 7s 6s 5s 4s"
    rest = [c.code for c in cb.DECK if c.code not in junk.split()]
    others = [" ".join(rest[:12]), junk, " ".join(rest[12:24])]
    for rules in (cb.CAVENDISH, cb.CALABRESELLA):
        state = cb.deal_from(rules, others, " ".join(rest[24:]))
        assert choice(state) == cb.Pass()


def test_the_single_player_asks_for_the_three_that_tops_his_long_suit() -> None:
    """Seed 000: "judgment is required in selecting the suit in which the 3 is to be asked"."""
    hand = "2h Ah Kh Qh Jh 7h 2d 5d 4s 5s 4c 5c"
    rest = [c.code for c in cb.DECK if c.code not in hand.split()]
    state = cb.deal_from(
        cb.CAVENDISH, [" ".join(rest[:12]), hand, " ".join(rest[12:24])], " ".join(rest[24:])
    )
    state = cb.apply(state, cb.Bid(cb.Contract.STAND))
    assert choice(state) == cb.Call(cb.Card.parse("3h"))


def test_the_single_player_gives_back_and_discards_low_cards_of_short_suits() -> None:
    """He keeps his long suit and his top cards; what goes is worth nothing."""
    hand = "3h 2h Ah Kh Qh Jh 7h 3d 2d 4s 5c 4c"  # asks for the 3s or 3c
    rest = [c.code for c in cb.DECK if c.code not in hand.split()]
    state = cb.deal_from(
        cb.CAVENDISH, [" ".join(rest[:12]), hand, " ".join(rest[12:24])], " ".join(rest[24:])
    )
    bot = HeuristicBot(5)
    state = cb.apply(state, cb.Bid(cb.Contract.STAND))
    gone: list[cb.Card] = []
    while state.phase in (cb.Phase.CALLING, cb.Phase.GIVING_BACK, cb.Phase.DISCARDING):
        action = bot.choose(state.view(1))
        if isinstance(action, (cb.GiveBack, cb.Discard)):
            gone.append(action.card)
        state = cb.apply(state, action)
    assert 2 <= len(gone) <= 5  # one back, one to four into the stock
    assert all(card.units == 0 for card in gone), gone
    assert not any(card.suit is cb.Suit.CUPS for card in gone), gone


# --- every decision kind, table mode, determinism -----------------------------------------


class Spy:
    """A bot that checks what it is handed and what it answers, then defers to ``inner``."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.kinds: set[type] = set()
        self.offered_irregular = False

    def choose(self, view: object) -> cb.Action:
        assert isinstance(view, cb.View), type(view)
        assert not isinstance(view, cb.State)
        assert view.to_move == view.seat and view.legal_actions
        self.offered_irregular |= any(isinstance(a, IRREGULAR) for a in view.legal_actions)
        action = self.inner.choose(view)
        assert action in view.legal_actions
        assert not isinstance(action, IRREGULAR)
        self.kinds.add(type(action))
        return action


def test_play_deal_hands_each_bot_only_its_own_view() -> None:
    """A bot is asked only at its seat's turn, with a View, never the State."""
    spies = [Spy(RandomBot(seat)) for seat in range(3)]
    final = play_deal(cb.CAVENDISH, spies, 11)
    assert final.is_over and final.result is not None
    assert all(spy.kinds for spy in spies)


def test_the_heuristic_bot_takes_every_kind_of_decision() -> None:
    """Over seeded deals of both games it bids, calls, gives back, discards, takes, raises, plays."""
    seen: set[type] = set()
    rules_list = (cb.CAVENDISH, cb.CALABRESELLA, cb.Calabresella(auction="until_two_pass"))
    for k in range(60):
        spies = [Spy(HeuristicBot(k * 3 + seat)) for seat in range(3)]
        play_deal(rules_list[k % 3], spies, k, dealer=k % 3)
        for spy in spies:
            seen |= spy.kinds
    expected = {cb.Pass, cb.Bid, cb.Call, cb.GiveBack, cb.Discard, cb.Done, cb.Take, cb.Play}
    assert expected <= seen, expected - seen


def test_scegliete_and_dividete_decisions_are_taken_by_the_adversaries() -> None:
    """After a solissimo raised either way, the adversaries' takes and discards are legal."""
    for modifier in cb.Modifier:
        for seed in range(4):
            state = cb.new_deal(cb.CALABRESELLA, seed=seed)
            state = cb.apply(state, cb.Bid(cb.Contract.SOLISSIMO))
            state = cb.apply(state, cb.Raise(modifier))
            spies = [Spy(HeuristicBot(seed + seat)) for seat in range(3)]
            final = play_deal(cb.CALABRESELLA, spies, seed, state=state)
            assert final.is_over
            assert cb.Discard in spies[2].kinds | spies[0].kinds


def test_in_table_mode_no_bot_chooses_an_irregular_action() -> None:
    """Irregular actions are offered under irregularities='record'; bots never take them."""
    rules = cb.Cavendish(irregularities="record")
    offered = False
    for seed in range(6):
        spies: list[Spy] = [Spy(HeuristicBot(seed)), Spy(RandomBot(seed)), Spy(HeuristicBot(-seed))]
        final = play_deal(rules, spies, seed, dealer=seed % 3)
        offered |= any(spy.offered_irregular for spy in spies)
        assert not any(isinstance(a, IRREGULAR) for _, a in final.history)
    assert offered


def test_regular_actions_leaves_out_the_irregular_ones() -> None:
    """regular_actions drops Revoke, TurnStock, OutOfTurn and Abandon, and nothing else."""
    state = cb.new_deal(cb.Cavendish(irregularities="record"), seed=7)
    state = cb.apply(state, cb.Bid(cb.Contract.STAND))
    view = state.view(1)
    assert any(isinstance(a, IRREGULAR) for a in view.legal_actions)
    regular = regular_actions(view)
    assert regular == tuple(a for a in view.legal_actions if not isinstance(a, IRREGULAR))
    assert regular


@pytest.mark.parametrize("factory", [RandomBot, HeuristicBot])
@pytest.mark.parametrize(
    "rules", [cb.CAVENDISH, cb.CALABRESELLA], ids=["cavendish", "calabresella"]
)
def test_a_deal_between_seeded_bots_is_the_same_every_time(
    factory: type[RandomBot] | type[HeuristicBot], rules: cb.Ruleset
) -> None:
    """Bots seeded alike, and the same deal seed, give the same finished state."""

    def once(seed: int) -> cb.State:
        return play_deal(rules, [factory(seed + s) for s in range(3)], seed)

    assert once(3) == once(3)
    assert any(once(3).history != once(k).history for k in range(4, 8))


def test_a_bot_accepts_a_generator_or_a_seed_alike() -> None:
    """HeuristicBot(7) and HeuristicBot(random.Random(7)) choose alike."""
    view = cb.new_deal(cb.CALABRESELLA, seed=2).view(1)
    assert HeuristicBot(7).choose(view) == HeuristicBot(random.Random(7)).choose(view)
    assert RandomBot(7).choose(view) == RandomBot(random.Random(7)).choose(view)
    with pytest.raises(cb.SeedError):
        HeuristicBot("7")  # type: ignore[arg-type]


def test_the_bots_satisfy_the_bot_protocol() -> None:
    """RandomBot and HeuristicBot are Bots (runtime-checkable protocol)."""
    assert isinstance(RandomBot(0), Bot)
    assert isinstance(HeuristicBot(0), Bot)
    assert not isinstance(object(), Bot)


# --- play_deal's edges -----------------------------------------------------------------


def test_play_deal_wants_one_bot_per_seat() -> None:
    """Two bots for three seats is refused with BotError, a ValueError."""
    with pytest.raises(BotError, match="3 bots needed"):
        play_deal(cb.CAVENDISH, [RandomBot(0), RandomBot(1)], 1)
    assert issubclass(BotError, ValueError)
    assert issubclass(BotError, cb.CalabrasellaError)


def test_play_deal_refuses_a_bot_answer_that_is_not_an_action() -> None:
    """A bot returning text is refused with BotError naming the seat."""

    class Talker:
        def choose(self, view: cb.View) -> cb.Action:
            return "pass"  # type: ignore[return-value]

    with pytest.raises(BotError, match="seat 1"):
        play_deal(cb.CAVENDISH, [Talker(), Talker(), Talker()], 1)


def test_play_deal_refuses_an_illegal_action_for_the_seat() -> None:
    """A bot answering with another phase's action gets IllegalActionError from apply."""

    class Player:
        def choose(self, view: cb.View) -> cb.Action:
            return cb.Play(cb.Card.parse("4c"))

    with pytest.raises(cb.IllegalActionError):
        play_deal(cb.CAVENDISH, [Player(), Player(), Player()], 1)


def test_play_deal_refuses_a_bad_generator() -> None:
    """An rng that is neither an int nor a random.Random is a SeedError."""
    with pytest.raises(cb.SeedError):
        play_deal(cb.CAVENDISH, [RandomBot(0)] * 3, 1.5)  # type: ignore[arg-type]


def test_with_four_at_the_table_the_sitting_out_dealer_is_never_asked() -> None:
    """The dealer takes no cards and never acts; his bot is never consulted."""

    class Absent:
        def choose(self, view: cb.View) -> cb.Action:
            raise AssertionError("the sitting-out dealer was asked")

    for dealer in range(4):
        bots: list[Bot] = [RandomBot(s) for s in range(4)]
        bots[dealer] = Absent()
        final = play_deal(cb.Cavendish(players=4), bots, dealer, dealer=dealer)
        assert final.is_over


def test_play_deal_plays_on_from_a_given_state() -> None:
    """state= continues a deal already under way, with the same ruleset only."""
    start = cb.apply(cb.new_deal(cb.CAVENDISH, seed=5), cb.Bid(cb.Contract.STAND))
    final = play_deal(cb.CAVENDISH, [RandomBot(s) for s in range(3)], 5, state=start)
    assert final.history[0] == (1, cb.Bid(cb.Contract.STAND))
    assert final.result is not None and final.result.declarer == 1
    with pytest.raises(BotError, match="not"):
        play_deal(cb.CALABRESELLA, [RandomBot(s) for s in range(3)], 5, state=start)


def test_the_heuristic_bot_plays_a_variant_with_its_own_kind_of_action() -> None:
    """A decision among a variant's own actions (the swap example's ``Swap``) is made at
    random, and the bot plays whole deals of it; legal every time."""
    swap = load_example("swap_variant")
    rules = swap.SwapCavendish()
    swaps = 0
    for seed in range(6):
        final = play_deal(rules, [HeuristicBot(seed + seat) for seat in range(3)], seed)
        assert final.is_over and final.result is not None
        swaps += sum(isinstance(a, swap.Swap) for _, a in final.history)
    assert swaps >= 4  # some deals were stood and swapped
