"""examples/swap_variant.py: a variant whose exchange step and action live outside the package.

The example is loaded from its file (examples/ is not a package); these
tests check that its step moves exactly one card each way, hides the swap
from everyone but the two adversaries, refuses what it must refuse without
touching the state, that its ``Swap`` action reads back from its text, its
JSON and its pickle (in records and states too), and that the variant passes
the conformance check.
"""

from __future__ import annotations

import pickle
import random
import re
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from support import assert_illegal, load_example

import calabrasella as cb
from calabrasella import svg
from calabrasella.bots import sample_state
from calabrasella.rulesets.steps import Role, Work
from calabrasella.testing import ConformanceError, check_ruleset

swap = load_example("swap_variant")
#: What a seat that does not see a pass is shown: the step's own words.
SWAP_HIDDEN = cb.Hidden("swap", "passed a card face down")


@pytest.fixture(autouse=True)
def _no_leak() -> Iterator[None]:
    """No test leaves the variant or its action registered."""
    yield
    assert "cavendish-swap" not in cb.ruleset_names()
    assert "swap" not in cb.action_kinds()


@pytest.fixture
def registered() -> Iterator[None]:
    """The variant and its Swap registered, as a program using them would have them."""
    with cb.registered_ruleset(swap.SwapCavendish), cb.registered_action(swap.Swap):
        yield


def stand(seed: int, **options: Any) -> cb.State:
    """A deal of the variant where the first seat to speak stands: the swap is next."""
    state = cb.new_deal(swap.SwapCavendish(**options), dealer=0, seed=seed)
    return cb.apply(state, cb.Bid(cb.Contract.STAND))


def adversaries(state: cb.State) -> tuple[int, int]:
    """The adversary after the declarer, then the other one."""
    order = state.deal.order
    i = order.index(state.declarer)
    return order[(i + 1) % 3], order[(i + 2) % 3]


def after_swaps(state: cb.State, rng: random.Random) -> cb.State:
    while state.phase is cb.Phase.EXCHANGING:
        state = cb.apply(state, rng.choice(state.legal_actions()))
    return state


def test_the_first_adversary_is_asked_for_any_card_he_holds() -> None:
    state = stand(3)
    first, _ = adversaries(state)
    assert state.phase is cb.Phase.EXCHANGING
    assert state.to_move == first
    assert state.legal_actions() == tuple(swap.Swap(card) for card in state.hand(first))
    assert state.view(first).legal_actions == state.legal_actions()


@pytest.mark.parametrize("seed", range(8))
def test_each_swap_moves_exactly_one_card_each_way(seed: int) -> None:
    rng = random.Random(seed)
    state = stand(seed)
    declarer = state.declarer
    assert declarer is not None
    first, second = adversaries(state)
    before = [state.hand(seat) for seat in range(3)]

    card = rng.choice(list(state.hand(first)))
    one = cb.apply(state, swap.Swap(card))
    assert one.hand(first) == before[first] - {card}
    assert one.hand(second) == before[second] | {card}
    assert one.hand(declarer) == before[declarer]
    assert one.to_move == second and one.phase is cb.Phase.EXCHANGING

    back = rng.choice(list(one.hand(second)))  # may be the card just received
    two = cb.apply(one, swap.Swap(back))
    assert two.hand(second) == one.hand(second) - {back}
    assert two.hand(first) == one.hand(first) | {back}
    assert two.hand(declarer) == before[declarer]
    assert [len(h) for h in two.hands] == [12, 12, 12]
    assert two.stock == state.stock
    assert two.history[-2:] == ((first, swap.Swap(card)), (second, swap.Swap(back)))
    # then Cavendish's exchange: the single player asks for a card
    assert two.phase is cb.Phase.CALLING and two.to_move == declarer


@pytest.mark.usefixtures("registered")
def test_the_swap_waits_in_a_phase_it_names_swapping() -> None:
    state = stand(3)
    first, second = adversaries(state)
    assert state.phase_name == "swapping" and str(state.phase) == "exchanging"
    for seat in range(3):
        view = state.view(seat)
        assert view.phase is cb.Phase.EXCHANGING and view.phase_name == "swapping"
        assert pickle.loads(pickle.dumps(view)).phase_name == "swapping"
        data = cb.to_data(view)
        assert data["phase"] == "exchanging" and data["phase_name"] == "swapping"
        assert cb.from_data(data, cb.View).phase_name == "swapping"
    assert "swapping" in repr(state) and "swapping" in repr(state.view(first))
    assert "swapping" in str(state)
    assert "swapping" in svg.table(state) and "swapping" in svg.table(state.view(second))
    after = after_swaps(state, random.Random(3))
    # the next step is Cavendish's own: its phase has no name of its own
    assert after.phase is cb.Phase.CALLING and after.phase_name == "calling"
    assert after.view(second).phase_name == "calling"
    assert cb.from_data(cb.to_data(after.view(second)), cb.View).phase_name == "calling"


@pytest.mark.parametrize("seed", range(6))
def test_only_the_adversaries_see_the_cards_swapped(seed: int) -> None:
    state = stand(seed)
    start = len(state.history)
    state = after_swaps(state, random.Random(seed))
    declarer = state.declarer
    assert declarer is not None
    swaps = state.history[start:]
    assert len(swaps) == 2
    assert state.view(declarer).history[start:] == (
        (swaps[0][0], SWAP_HIDDEN),
        (swaps[1][0], SWAP_HIDDEN),
    )
    for seat in adversaries(state):
        view = state.view(seat)
        assert view.history[start:] == swaps  # each adversary sees both: his own and the other's
        assert view.given_back is None  # and nothing of a give-back that has not happened


@pytest.mark.parametrize("seed", range(6))
def test_the_swap_stays_hidden_through_the_deal(seed: int) -> None:
    """After the give-back, the play and the result, the single player still sees no swapped card."""
    rng = random.Random(seed)
    state = stand(seed)
    start = len(state.history)
    while not state.is_over:
        state = cb.apply(state, rng.choice(state.legal_actions()))
    declarer = state.declarer
    assert declarer is not None
    assert [a for _, a in state.view(declarer).history[start : start + 2]] == [
        SWAP_HIDDEN,
        SWAP_HIDDEN,
    ]
    for seat in adversaries(state):
        view = state.view(seat)
        assert view.history[start : start + 2] == state.history[start : start + 2]
        # the give-back stays between the single player and the seat that gave
        assert (view.given_back is not None) == (seat == state.giver)


def test_the_dealer_sitting_out_sees_the_swap_hidden() -> None:
    state = stand(5, players=4)
    start = len(state.history)
    state = after_swaps(state, random.Random(5))
    dealer = state.deal.dealer
    assert dealer not in state.deal.order
    assert [a for _, a in state.view(dealer).history[start:]] == [
        SWAP_HIDDEN,
        SWAP_HIDDEN,
    ]
    for seat in adversaries(state):
        assert state.view(seat).history[start:] == state.history[start:]


def test_an_illegal_swap_is_refused_and_changes_nothing() -> None:
    state = stand(3)
    first, second = adversaries(state)
    declarer = state.declarer
    assert declarer is not None
    not_his = next(iter(state.hand(second)))
    error = assert_illegal(state, swap.Swap(not_his), "cannot pass", "not in his hand")
    assert f"seat {first}" in error.reason and str(not_his) in error.reason
    assert_illegal(state, swap.Swap(next(iter(state.hand(declarer)))), "not in his hand")
    assert_illegal(state, swap.Swap(next(iter(state.stock))), "not in his hand")
    mine = next(iter(state.hand(first)))
    for wrong in (cb.Play(mine), cb.GiveBack(mine), cb.Pass(), cb.Done()):
        error = assert_illegal(state, wrong, f"seat {first} is to pass a card face down")
        assert f"to seat {second}" in error.reason
    error = assert_illegal(state, "Ad", "text is not an action", "parse_action")
    assert isinstance(error, cb.NotAnActionError)


def test_a_swap_out_of_its_step_is_refused_in_the_swaps_own_words() -> None:
    """describe() uses the Swap class's description: "not to pass a card face down"."""
    state = cb.new_deal(swap.SwapCavendish(), dealer=0, seed=3)
    card = next(iter(state.hand(1)))  # seat 1, the eldest, speaks first
    assert_illegal(state, swap.Swap(card), "is to bid or pass, not to pass a card face down")
    state = cb.apply(state, cb.Bid(cb.Contract.STAND))
    state = after_swaps(state, random.Random(3))
    declarer = state.declarer
    assert declarer is not None and state.phase is cb.Phase.CALLING
    error = assert_illegal(state, swap.Swap(next(iter(state.hand(declarer)))), "call a card")
    assert error.reason.endswith("not to pass a card face down")


def test_the_step_is_skipped_when_the_giver_holds_nothing() -> None:
    state = stand(3)
    assert state.exchange is not None
    work = Work(state.rules, [0, 0, 0], state.stock_mask, state.exchange, 0)
    plan, to_move = work.plan, work.to_move
    assert swap.SwapStep(Role.FIRST, Role.SECOND).start(work) is False
    assert work.plan is plan and work.to_move == to_move  # nothing changed, nobody asked


def test_a_swap_needs_two_roles() -> None:
    with pytest.raises(cb.RulesetError, match="cannot pass a card to himself"):
        swap.SwapStep(Role.FIRST, Role.FIRST)
    with pytest.raises(cb.RulesetError, match="expected two Roles"):
        swap.SwapStep("first", Role.SECOND)


@pytest.mark.parametrize("players", [3, 4])
def test_the_variant_passes_the_conformance_check(players: int) -> None:
    with cb.registered_action(swap.Swap):
        report = check_ruleset(swap.SwapCavendish(players=players), deals=12, seed=players)
    assert report.deals == 12
    assert report.views_checked > 0
    assert report.rollouts >= 12  # from the first state of every deal, and one more


def test_the_conformance_check_wants_the_swap_registered() -> None:
    with pytest.raises(ConformanceError, match="the action kind 'swap' of Swap is not registered"):
        check_ruleset(swap.SwapCavendish(), deals=12)


def test_it_is_found_by_name_only_while_registered() -> None:
    with cb.registered_ruleset(swap.SwapCavendish):
        rules = cb.find_ruleset("Cavendish-Swap", first_lead="after_declarer")
        assert rules == swap.SwapCavendish(first_lead="after_declarer")
        assert rules.terms.title == "Calabrasella with a blind swap"


def test_the_script_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["swap_variant.py", "--deals", "3"])
    swap.main()
    out = capsys.readouterr().out
    assert "passed a card face down, passed a card face down" in out
    assert "JSON and text read back equal" in out
    assert "check_ruleset(cavendish-swap, deals=3): passed" in out
    assert "swap" not in cb.action_kinds()


# --- the Swap action: text, JSON, records, pickles ---------------------------------------


def played(seed: int, players: int = 3) -> cb.State:
    """A whole deal of the variant between random players (the first seat to speak stands)."""
    rng = random.Random(seed)
    state = stand(seed, players=players)
    while not state.is_over:
        state = cb.apply(state, rng.choice(state.legal_actions()))
    return state


def test_a_swap_writes_itself_as_swap_and_its_card() -> None:
    assert str(swap.Swap("Ad")) == "swap Ad"
    assert swap.Swap("asso di denari") == swap.Swap(cb.Card.parse("Ad"))
    assert swap.Swap.kind == "swap" and isinstance(swap.Swap("Ad"), cb.CustomAction)


@pytest.mark.usefixtures("registered")
@pytest.mark.parametrize("card", cb.DECK, ids=str)
def test_parse_action_reads_a_swap_back_from_its_text(card: cb.Card) -> None:
    action = swap.Swap(card)
    assert cb.parse_action(str(action)) == action
    assert cb.parse_action(f"  SWAP   {card.code.lower()} ") == action


@pytest.mark.usefixtures("registered")
def test_parse_action_reads_a_swap_of_a_card_in_words() -> None:
    assert cb.parse_action("swap ace of coins") == swap.Swap("Ad")
    with pytest.raises(cb.NotationError, match=r"not an action: 'swap' \(swap: "):
        cb.parse_action("swap")
    with pytest.raises(cb.NotationError, match=r"not an action: 'swap Zz' \(swap: "):
        cb.parse_action("swap Zz")


def test_parse_action_does_not_know_a_swap_unless_registered() -> None:
    with pytest.raises(cb.NotationError, match="'swap' is no action kind"):
        cb.parse_action("swap Ad")


@pytest.mark.usefixtures("registered")
@pytest.mark.parametrize("players", [3, 4])
def test_a_whole_deal_round_trips_through_json_and_the_text_record(players: int) -> None:
    for seed in range(6):
        state = played(seed, players)
        record = cb.Record.from_state(state)
        data = cb.to_data(record)
        swaps = [a for a in data["actions"] if isinstance(a, dict)]
        assert len(swaps) == 2
        assert swaps == [
            {"kind": "swap", "data": a.card.code}
            for _, a in state.history
            if isinstance(a, swap.Swap)
        ]
        assert cb.from_json(cb.to_json(record), cb.Record) == record
        assert cb.from_json(cb.to_json(record), cb.Record).replay() == state
        text = record.to_text()
        assert sum(": swap " in line for line in text.splitlines()) == 2
        assert cb.Record.from_text(text) == record
        assert cb.from_json(cb.to_json(state), cb.State) == state
        for seat in range(players):
            view = state.view(seat)
            assert cb.from_json(cb.to_json(view), cb.View) == view


@pytest.mark.usefixtures("registered")
def test_a_state_in_the_middle_of_the_swap_round_trips_through_json() -> None:
    state = stand(3)
    state = cb.apply(state, state.legal_actions()[0])  # one swap made, the other to make
    assert isinstance(state.history[-1][1], swap.Swap)
    assert all(isinstance(a, swap.Swap) for a in state.legal_actions())
    assert cb.from_json(cb.to_json(state), cb.State) == state
    mover = state.to_move
    assert mover is not None
    view = state.view(mover)  # an adversary: sees the swap and lists his own
    data = cb.to_data(view)
    assert data["history"][-1][1] == {"kind": "swap", "data": state.history[-1][1].card.code}
    assert data["legal_actions"][0]["kind"] == "swap"
    assert cb.from_data(data, cb.View) == view
    declarer = state.declarer
    assert declarer is not None
    assert cb.to_data(state.view(declarer))["history"][-1][1] == {
        "hidden": "swap",
        "words": "passed a card face down",
    }


@pytest.mark.parametrize("registration", ["registered", "not registered"])
def test_states_of_the_variant_pickle(registration: str, request: pytest.FixtureRequest) -> None:
    """Registered, a Swap pickles as its kind and card; not registered, as itself."""
    if registration == "registered":
        request.getfixturevalue("registered")
    state = stand(4)
    states = [state]
    rng = random.Random(4)
    while not state.is_over:
        state = cb.apply(state, rng.choice(state.legal_actions()))
        states.append(state)
    for s in states:
        again = pickle.loads(pickle.dumps(s))
        assert again == s and hash(again) == hash(s)
        assert again.legal_actions() == s.legal_actions()
        for seat in range(3):
            assert pickle.loads(pickle.dumps(s.view(seat))) == s.view(seat)


@pytest.mark.usefixtures("registered")
def test_a_pickled_swap_keeps_its_kind_and_card() -> None:
    state = cb.apply(stand(4), cb.legal_actions(stand(4))[0])
    dumped = pickle.dumps(state)
    assert b"swap" in dumped and b"swap_variant" not in dumped  # by kind, not by class
    assert pickle.loads(dumped) == state


def test_a_pickle_of_a_swap_needs_the_kind_where_it_is_loaded() -> None:
    with cb.registered_ruleset(swap.SwapCavendish), cb.registered_action(swap.Swap):
        dumped = pickle.dumps(cb.apply(stand(4), cb.legal_actions(stand(4))[0]))
    with (
        cb.registered_ruleset(swap.SwapCavendish),
        pytest.raises(cb.RecordError, match="kind 'swap'"),
    ):
        pickle.loads(dumped)


@pytest.mark.usefixtures("registered")
@pytest.mark.parametrize(
    ("data", "words"),
    [
        (None, "expected a card code such as 'Ad', got None"),
        (3, "expected a card code such as 'Ad', got 3"),
        (["Ad"], "expected a card code"),
        ({"card": "Ad"}, "expected a card code"),
        ("Zz", "not the data of a swap action"),
        ("", "not the data of a swap action"),
    ],
)
def test_malformed_swap_json_is_a_record_error(data: object, words: str) -> None:
    record = cb.Record.from_state(played(5))
    doc = cb.to_data(record)
    at = next(i for i, a in enumerate(doc["actions"]) if isinstance(a, dict))
    doc["actions"][at] = {"kind": "swap", "data": data}
    with pytest.raises(cb.RecordError) as info:
        cb.from_data(doc, cb.Record)
    assert info.value.where == f"actions[{at}].data"
    assert words in info.value.reason


@pytest.mark.usefixtures("registered")
def test_an_illegal_swap_in_a_record_is_a_record_error() -> None:
    record = cb.Record.from_state(played(5))
    doc = cb.to_data(record)
    at = next(i for i, a in enumerate(doc["actions"]) if isinstance(a, dict))
    stock = doc["deal"]["stock"][0]
    doc["actions"][at] = {"kind": "swap", "data": stock}
    with pytest.raises(cb.RecordError, match=f"swap {stock}' is illegal: .*not in his hand"):
        cb.from_data(doc, cb.Record)


def test_a_record_with_a_swap_not_registered_names_the_kind() -> None:
    with cb.registered_ruleset(swap.SwapCavendish), cb.registered_action(swap.Swap):
        record = cb.Record.from_state(played(5))
        doc, text = cb.to_json(record), record.to_text()
    with cb.registered_ruleset(swap.SwapCavendish):
        with pytest.raises(
            cb.RecordError, match=r"actions\[\d+\]\.kind: no action kind 'swap' is registered"
        ):
            cb.from_json(doc, cb.Record)
        with pytest.raises(
            cb.RecordError, match=r"line \d+: not an action: ' ?swap \S+' .*'swap' is no action kind"
        ):
            cb.Record.from_text(text)


# --- the moves, the sampler and the sampling bot: all from the step's own move ------


def test_each_pass_is_recorded_as_a_move_seen_by_the_two_adversaries() -> None:
    """The step's ``work.move`` is the record: hand to hand, seen by the two, in its words."""
    state = after_swaps(stand(7), random.Random(7))
    first, second = adversaries(state)
    swaps = [m for m in state.moves if m.words == "passed a card face down"]
    assert [(m.source, m.target) for m in swaps] == [
        (cb.places.hand(first), cb.places.hand(second)),
        (cb.places.hand(second), cb.places.hand(first)),
    ]
    assert all(m.seen_by == frozenset((first, second)) and m.number == 1 for m in swaps)
    cards = [a.card for _, a in state.history if isinstance(a, swap.Swap)]
    assert [m.cards for m in swaps] == [cb.CardSet(1 << c.index) for c in cards]
    declarer = state.declarer
    assert declarer is not None
    declarer_moves = [m for m in state.view(declarer).moves if m.words == swaps[0].words]
    assert [(m.cards, m.number) for m in declarer_moves] == [(None, 1), (None, 1)]


def test_the_rules_picture_tells_the_swap_in_the_steps_own_words() -> None:
    """The flow chart of a ruleset asks each step for its summary: the swap's two
    passes come before Cavendish's own steps, in the swap's words."""
    rules = swap.SwapCavendish()
    words = [step.summary(rules.terms) for step in rules.exchange_plan(cb.Contract.STAND)]
    assert words[:3] == [
        "first adversary passes a card face down to the second",
        "second adversary passes a card face down to the first",
        "single player calls a card",
    ]
    text = " ".join(re.sub(r"<[^>]+>", " ", svg.flow(rules)).split())
    assert "first adversary passes a card" in text and "single player calls a card" in text


@pytest.mark.usefixtures("registered")
@pytest.mark.parametrize("seed", range(4))
def test_pictures_of_the_swap_are_the_same_in_every_world_the_seat_cannot_tell_apart(
    seed: int,
) -> None:
    """While the swap waits and once it is over, each seat's table picture is the same
    for every sampled world its view allows: no picture draws a card passed face down."""
    state = stand(seed)
    rng = random.Random(seed)
    moments = [state, cb.apply(state, rng.choice(state.legal_actions()))]
    moments.append(after_swaps(moments[-1], rng))
    for moment in moments:
        for seat in range(3):
            view = moment.view(seat)
            picture = svg.table(view)
            worlds = [sample_state(view, 1000 * seed + k) for k in range(12)]
            assert all(svg.table(world.view(seat)) == picture for world in worlds)
        assert len({svg.table(world) for world in worlds}) > 1  # the states show the cards


@pytest.mark.usefixtures("registered")
@pytest.mark.parametrize("seed", range(8))
def test_every_view_of_a_deal_samples_worlds_that_give_it(seed: int) -> None:
    """``sample_state`` follows the swap through its recorded moves: every seat's view at
    every state of a deal gives back worlds whose view for that seat is the same view."""
    rng = random.Random(seed)
    state = cb.new_deal(swap.SwapCavendish(), dealer=seed % 3, seed=seed)
    seen_hidden = False
    while True:
        for seat in range(3):
            view = state.view(seat)
            seen_hidden = seen_hidden or SWAP_HIDDEN in [a for _, a in view.history]
            for k in range(2):
                world = sample_state(view, 100 * seed + k)
                assert world.view(seat) == view
        if state.is_over:
            break
        state = cb.apply(state, rng.choice(state.legal_actions()))
    assert seen_hidden or (state.result is not None and state.result.void)


@pytest.mark.usefixtures("registered")
def test_the_single_players_worlds_differ_in_the_cards_swapped() -> None:
    """Where the single player did not see the pass, the worlds put other cards in the
    adversaries' hands: the sampler does not pin the real ones."""
    state = after_swaps(stand(3), random.Random(3))
    assert state.declarer is not None
    view = state.view(state.declarer)
    first, _ = adversaries(state)
    hands = {sample_state(view, k).hand(first) for k in range(12)}
    assert len(hands) > 1


@pytest.mark.usefixtures("registered")
def test_the_sampling_bot_plays_fifty_deals_with_its_sampler() -> None:
    """A SamplingBot in every seat plays 50 whole deals of the variant without once falling
    back to its fallback bot for want of a sampler (it would warn)."""
    import warnings

    from calabrasella.bots import SamplingBot, play_deal

    rules = swap.SwapCavendish()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for seed in range(50):
            bots = [SamplingBot(seed * 3 + k, worlds=2, nodes=400, search_from=12) for k in range(3)]
            final = play_deal(rules, bots, seed, dealer=seed % 3)
            assert final.is_over
            assert not any(bot.warned for bot in bots)
