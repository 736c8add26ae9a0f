"""Rule-by-rule tests: Trade Phase, by mail (OFFER, ACCEPT, WITHDRAW)."""

from __future__ import annotations

import pytest

from engine.problems import ProblemKind
from engine.rulesets.culture_and_conquest.model import GameState, Leader
from engine.rulesets.culture_and_conquest.rules import RULES

from .support import event_texts, make_state, patch_dice, play, problems

FED = {"ann": {"agriculture": 5, "labor": 2}, "bob": {"agriculture": 5, "trade": 2}}


@pytest.fixture(autouse=True)
def quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    patch_dice(monkeypatch)


def _state() -> GameState:
    return make_state(pops=FED, gold=10, advances={"ann": ["Pottery"], "bob": ["Law"]})


def _notes(resolution: object, seat: str) -> list[tuple[str, str]]:
    return [(r.status.value, r.note) for r in resolution.results[seat]]  # type: ignore[attr-defined]


def test_an_offer_accepted_by_its_terms_trades_in_the_offering_seats_trade_phase() -> None:
    """Trade Phase: "The active Player may trade Gold, Food, Labor, Populations, Cities,
    Advances, Leaders, and promises with other Players." By mail: OFFER, and ACCEPT by the
    offer's terms in the same turn; it executes in the offering seat's trade phase."""
    after, resolution = play(
        _state(),
        {"ann": "OFFER bob 5 GOLD FOR ADVANCE Law", "bob": "ACCEPT ann 5 gold FOR advance law"},
    )
    ann, bob = after.seat("ann"), after.seat("bob")
    assert ann.advances == ["Pottery", "Law"]
    assert bob.advances == ["Law"]  # an advance traded is taught, not lost
    assert (ann.gold, bob.gold) == (5 + 1, 10 + 5 + 2 + 1)  # then income
    assert _notes(resolution, "ann") == [("done", "trade 1A1 done")]
    assert _notes(resolution, "bob") == [("done", "trade 1A1 done")]
    [trade] = [e for e in resolution.events if e.code == "trade"]
    assert trade.phase == "8 Trade" and trade.seat == "ann" and trade.also == ("bob",)


def test_an_open_offer_is_accepted_by_its_id_the_next_turn() -> None:
    """Trade by mail: an offer not accepted at once stays open with an id, to be accepted by
    order before the next deadline (ACCEPT <seat> <offer-id>)."""
    after, resolution = play(_state(), {"ann": "OFFER bob 2 FOOD, 1 LABOR POINTS FOR 3 GOLD"})
    assert _notes(resolution, "ann") == [
        ("done", "open as offer 1A1; bob may accept it until your next trade phase")
    ]
    assert [o.id for o in after.offers] == ["1A1"]
    after, resolution = play(after, {"bob": "ACCEPT ann 1A1"})
    assert _notes(resolution, "bob") == [("done", "trade 1A1 done")]
    assert after.offers == []
    assert after.seat("bob").labor_credit == 0  # used in bob's build phase this turn
    assert event_texts(resolution, "labor") == [
        "Build: 1 labor point (-1 traded).",
        "Build: 1 labor point (+1 traded).",
    ]


def test_an_offer_expires_after_the_offering_seats_next_trade_phase() -> None:
    """Project decision: an offer is tried in the offering seat's trade phase of the turn it is
    made and of that seat's next turn, then expires."""
    after, _ = play(_state(), {"ann": "OFFER bob 1 GOLD FOR NOTHING"})
    after, resolution = play(after, {})
    assert after.offers == []
    assert event_texts(resolution, "offer_expired") == [
        "Trade: offer 1A1 to bob expires unaccepted."
    ]


def test_what_cannot_be_delivered_fails_with_the_reason_in_both_reports() -> None:
    """Trade by mail: "what cannot be delivered fails with a reason in both reports"; nothing
    changes hands."""
    after, resolution = play(
        _state(), {"ann": "OFFER bob 50 GOLD FOR 1 GOLD", "bob": "ACCEPT ann 50 GOLD FOR 1 GOLD"}
    )
    note = "trade 1A1 failed: ann has 10 gold, not 50"
    assert _notes(resolution, "ann") == [("skipped", note)]
    assert _notes(resolution, "bob") == [("skipped", note)]
    [failed] = [e for e in resolution.events if e.code == "trade_failed"]
    assert failed.visible_to("ann") and failed.visible_to("bob")
    assert after.seat("ann").gold == 11


def test_an_advance_the_taker_knows_fails() -> None:
    """Trade Phase: trading an Advance teaches it; one the taker knows cannot be taken."""
    state = _state()
    state.seat("bob").advances.append("Pottery")
    _, resolution = play(
        state,
        {
            "ann": "OFFER bob ADVANCE Pottery FOR 1 GOLD",
            "bob": "ACCEPT ann advance pottery for 1 gold",
        },
    )
    assert _notes(resolution, "bob") == [("skipped", "trade 1A1 failed: bob already knows Pottery")]


def test_populations_cities_and_leaders_change_hands() -> None:
    """Trade Phase: "Populations, Cities, ... Leaders". Populations given join the taker's
    Agriculture (project decision: new populations start as Agriculture)."""
    state = _state()
    state.seat("ann").leaders = [Leader("Homer", "Thinker")]
    state.seat("bob").cities[0].name = "Rome"
    terms = "2 LABORERS, LEADER Homer FOR CITY Rome, 1 TRADE"
    after, _resolution = play(
        state, {"ann": f"OFFER bob {terms}", "bob": f"ACCEPT ann {terms.lower()}"}
    )
    ann, bob = after.seat("ann"), after.seat("bob")
    assert [c.name for c in ann.cities] == ["Giza", "Rome"]
    assert bob.leaders == [Leader("Homer", "Thinker")]
    assert ann.pops["agriculture"] == 6 and bob.pops["trade"] == 1


def test_food_and_gold_change_hands() -> None:
    """Trade Phase: "trade Gold, Food" """
    state = _state()
    state.seat("ann").advances.append("Irrigation")  # 20 food, 7 eaten: 13 kept with Pottery
    after, resolution = play(
        state, {"ann": "OFFER bob 10 FOOD FOR 4 GOLD", "bob": "ACCEPT ann 10 FOOD FOR 4 GOLD"}
    )
    assert after.seat("ann").food == 3
    # bob plays after ann: the 10 food arrive before his upkeep, and what is not eaten spoils
    assert "18 food not eaten spoils (no Pottery)." in event_texts(resolution, "food_spoils")


def test_promises_are_recorded_not_enforced() -> None:
    """Trade Phase: "and promises" - recorded text, not enforced."""
    terms = 'PROMISE "no war for 3 turns, on my honour" FOR 2 GOLD'
    _, resolution = play(_state(), {"ann": f"OFFER bob {terms}", "bob": f"ACCEPT ann {terms}"})
    [trade] = event_texts(resolution, "trade")
    assert 'promise "no war for 3 turns, on my honour"' in trade
    assert "Promises are recorded, not enforced." in trade


def test_an_acceptance_of_other_terms_matches_nothing() -> None:
    """Trade by mail: only "matching offers and acceptances execute"."""
    after, resolution = play(
        _state(),
        {"ann": "OFFER bob 5 GOLD FOR ADVANCE Law", "bob": "ACCEPT ann 4 GOLD FOR ADVANCE Law"},
    )
    assert _notes(resolution, "bob") == [("skipped", "no open offer from ann matched it")]
    assert [o.id for o in after.offers] == ["1A1"]


def test_an_offer_can_be_withdrawn() -> None:
    """Trade by mail: WITHDRAW <offer-id> takes back an open offer."""
    after, _ = play(_state(), {"ann": "OFFER bob 1 GOLD FOR NOTHING"})
    after, resolution = play(after, {"ann": "WITHDRAW 1A1", "bob": "ACCEPT ann 1 GOLD FOR NOTHING"})
    assert _notes(resolution, "ann") == [("done", "offer 1A1 withdrawn")]
    assert _notes(resolution, "bob") == [("skipped", "no open offer from ann matched it")]


@pytest.mark.parametrize(
    ("text", "kind", "message"),
    [
        ("OFFER bob CITY Rome FOR 1 GOLD", ProblemKind.ILLEGAL, "ann has no city called Rome"),
        ("OFFER bob 1 GOLD FOR ADVANCE Pottery", ProblemKind.ILLEGAL, "bob does not know Pottery"),
        ("OFFER bob 1 GOLD", ProblemKind.SYNTAX, "an offer is <what you give> FOR <what you get>"),
        ("OFFER bob 1 WINE FOR NOTHING", ProblemKind.SYNTAX, "'WINE' is not a thing to count"),
        ("ACCEPT bob 3B1", ProblemKind.ILLEGAL, "bob has no open offer 3B1 to you"),
        ("WITHDRAW 9Z9", ProblemKind.ILLEGAL, "you have no open offer 9Z9"),
        ("OFFER bob 2 LABOR FOR NOTHING", ProblemKind.AMBIGUOUS, "'2 LABOR' could be labor"),
        ("OFFER zed 1 GOLD FOR NOTHING", ProblemKind.SYNTAX, "'zed' is not a seat"),
    ],
)
def test_bad_trade_orders_are_answered(text: str, kind: ProblemKind, message: str) -> None:
    """Trade Phase: only what a seat has can be offered, and only what the other has asked."""
    [problem] = problems(_state(), "ann", text)
    assert problem.kind is kind
    assert problem.message.startswith(message)
    if kind is ProblemKind.ILLEGAL:
        assert problem.rule == RULES["trade"]


def test_in_sequential_mode_an_acceptance_waits_for_the_offering_seats_next_turn() -> None:
    """Trade by mail, option mode = sequential: only the active seat orders, so an acceptance
    is kept until the offering seat's next trade phase."""
    state = make_state(
        pops=FED, gold=10, advances={"ann": ["Pottery"]}, options={"mode": "sequential"}
    )
    after, _ = play(state, {"ann": "OFFER bob 3 GOLD FOR NOTHING"})  # ann's turn (1)
    after, resolution = play(after, {"bob": "ACCEPT ann 1A1"})  # bob's turn (2)
    assert _notes(resolution, "bob") == [("done", "kept until ann's next trade phase")]
    after, resolution = play(after, {})  # ann's turn (3): the trade
    assert event_texts(resolution, "trade") == [
        "Trade 1A1: ann gives bob 3 gold; bob gives ann nothing."
    ]
    assert after.acceptances == [] and after.offers == []


def test_labor_points_received_in_a_trade_can_be_traded_on() -> None:
    """docs/rules: a seat may trade "its Labor specialists plus labor already received". bob
    has no Labor specialists; the 2 labor points ann gives him in her trade phase are his to
    trade to cat in his own (issue 13: the check compared against his Labor populations)."""
    state = make_state(
        ("ann", "bob", "cat"),
        pops=FED | {"cat": {"agriculture": 5}},
        gold=10,
    )
    _, resolution = play(
        state,
        {
            "ann": "OFFER bob 2 LABOR POINTS FOR NOTHING",
            "bob": "ACCEPT ann 2 LABOR POINTS FOR NOTHING\nOFFER cat 2 LABOR POINTS FOR 1 GOLD",
            "cat": "ACCEPT bob 2 LABOR POINTS FOR 1 GOLD",
        },
    )
    assert ("done", "trade 1B1 done") in _notes(resolution, "bob")
    assert event_texts(resolution, "labor")[-1] == "Build: 2 labor points (+2 traded)."


def test_a_labor_trade_that_fails_speaks_of_labor_points() -> None:
    """issue 13: the refusal said "Labor populations" for any failed labor-point trade."""
    _, resolution = play(
        _state(),
        {
            "bob": "OFFER ann 3 LABOR POINTS FOR NOTHING",
            "ann": "ACCEPT bob 3 LABOR POINTS FOR NOTHING",
        },
    )
    assert _notes(resolution, "bob") == [
        ("skipped", "trade 1B1 failed: bob has 0 labor points, not 3")
    ]


def test_labor_given_in_a_turn_without_a_build_phase_is_owed_from_the_next(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Disasters: a culture with a Disaster "skips its build phase". Labor points traded away
    come out of the giver's next build phase; when a disaster skips it, they are owed from the
    one after (issue 13: giving them cost nothing while the receiver still got them)."""
    patch_dice(monkeypatch, {("ann", "disaster"): [1, 4]})
    after, resolution = play(
        _state(),
        {
            "ann": "OFFER bob 2 LABOR POINTS FOR 1 GOLD",
            "bob": "ACCEPT ann 2 LABOR POINTS FOR 1 GOLD",
        },
    )
    assert event_texts(resolution, "build_skipped") == [
        "Build phase skipped: the Pirates. 2 labor points traded away are owed from the next."
    ]
    assert event_texts(resolution, "labor") == ["Build: 2 labor points (+2 traded)."]
    assert after.seat("ann").labor_credit == -2
    patch_dice(monkeypatch)
    _, resolution = play(after)
    assert event_texts(resolution, "labor")[0] == "Build: 0 labor points (-2 traded)."
