"""Transactions (1-16), Repeat and At (1-10): all or nothing, each repetition its own action, an
announced action judged when it runs; and the reader's bounds on lines that wrap other lines."""
from __future__ import annotations

from datetime import timedelta

from engine import machine
from engine.inputs import ClockStep
from tests.bnomic.support import ALICE, BOB, CAROL, DAVE, GRAMMAR, START, Game, said

HELD = "the Ministry of Law is held by bob@b.test: only a Vacant Ministry may be taken ('Usurp' it instead) (rule 6-2)"


def holders(g: Game) -> dict[str, str | None]:
    return {m["name"]: m["holder"] for m in g.json()["ministries"] if m["holder"]}


def test_a_transaction_whose_lines_are_legal_and_assertions_true_is_applied():
    g = Game()
    events = g.send(ALICE, "x", "BEGIN TRANSACTION\nTake Society\nAssert Alice holds Registrar\n"
                                "Assert the clock is off\nAssert nday is 1\nEND TRANSACTION")
    assert said(events) == ['  "Take Society": you hold the Ministry of Society (the Registrar)',
                            '  "BEGIN TRANSACTION": all 4 lines done (1-16)']
    assert holders(g) == {"Ministry of Society": ALICE}


def test_a_false_assertion_undoes_the_lines_before_it_and_names_the_line():
    g = Game()
    events = g.send(BOB, "x", "BEGIN TRANSACTION\nTake Law\nAssert points of Bob is 5\nEND TRANSACTION")
    assert said(events) == ['! "BEGIN TRANSACTION": line 2, \'Assert points of Bob is 5\', failed: Bob\'s points is 0; '
                            'the transaction failed (rule 1-16); nothing done']
    assert holders(g) == {}
    assert [e.kind for e in events] == ["outcome"]  # the trial's events are not the game's


def test_a_refused_line_fails_the_transaction_with_its_reason():
    g = Game()
    g.send(BOB, "x", "Take Law")
    events = g.send(ALICE, "x", "BEGIN TRANSACTION\nTake Society\nTake Law\nEND TRANSACTION")
    assert said(events) == [f'! "BEGIN TRANSACTION": line 2, \'Take Law\', failed: {HELD}; nothing done; '
                            'the transaction failed (rule 1-16); nothing done']
    assert holders(g) == {"Ministry of Law": BOB}


def test_an_unread_line_fails_the_transaction_reading_43():
    g = Game()
    events = g.send(BOB, "x", "BEGIN TRANSACTION\nTake Law\nplease\nEND TRANSACTION")
    assert said(events) == ['! "BEGIN TRANSACTION": the line \'please\' is no Game Action nor assertion, so the '
                            'transaction cannot be determined with finality: it failed (rule 1-16); nothing done']
    assert holders(g) == {}


def test_an_assertion_outside_a_transaction_is_refused():
    g = Game()
    assert said(g.send(BOB, "x", "Assert nday is 1")) == [
        '! "Assert nday is 1": an assertion is no Game Action: it goes in a BEGIN TRANSACTION ... END TRANSACTION '
        '(rule 1-16); nothing done']


def test_each_repetition_is_its_own_action_reading_44():
    g = Game()
    assert said(g.send(BOB, "x", "Repeat 3 times: Take Law")) == [
        '  "Repeat 3 times: Take Law (1 of 3)": you hold the Ministry of Law (the Rulekeeper)',
        f'! "Repeat 3 times: Take Law (2 of 3)": {HELD}; nothing done',
        f'! "Repeat 3 times: Take Law (3 of 3)": {HELD}; nothing done']
    assert holders(g) == {"Ministry of Law": BOB}


def test_an_action_at_an_absolute_time_runs_then_as_if_sent_then():
    g = Game()
    assert said(g.send(CAROL, "x", "At 2026-01-05T12:00:00Z: Take Change")) == [
        '  "At 2026-01-05T12:00:00Z: Take Change": S1: \'Take Change\' runs at 2026-01-05T12:00:00Z, judged then (1-10)']
    assert g.json()["scheduled"] == [{"number": 1, "by": CAROL, "line": "At 2026-01-05T12:00:00Z: Take Change"}]
    assert machine.next_due(g.state, g.config) == START + timedelta(hours=12)
    g.send(DAVE, "x", "Take Change")  # it is judged when it runs: Dave holds it by then
    events = machine.apply(g.state, ClockStep(at=START + timedelta(hours=12)), g.config)
    ran = [e.data for e in events if e.kind == "scheduled_ran"]
    assert ran == [{"number": 1, "by": CAROL, "line": "At 2026-01-05T12:00:00Z: Take Change",
                    "lines": ['! "Take Change": the Ministry of Change is held by dave@b.test: only a Vacant Ministry '
                              "may be taken ('Usurp' it instead) (rule 6-2); nothing done"],
                    "message_id": "m1@mail.test"}]
    assert g.json()["scheduled"] == []
    assert holders(g) == {"Ministry of Change": DAVE}
    assert machine.next_due(g.state, g.config) == START + timedelta(days=1)


def test_an_action_at_an_nday_waits_while_the_clock_is_off_and_a_past_moment_is_refused():
    g = Game()
    g.send(CAROL, "x", "At the start of nday 3 of nweek 1: Take Goods")
    assert said(g.send(CAROL, "x", "At the start of nday 1 of nweek 1: Take Goods")) == [
        '! "At the start of nday 1 of nweek 1: Take Goods": that moment has passed (rule 1-10); nothing done']
    g.midnight(3)  # three ndelays: no nday starts
    assert [s["number"] for s in g.json()["scheduled"]] == [1]
    assert holders(g) == {}


def test_an_action_at_the_end_of_an_nday_runs_at_that_midnight_before_the_change():
    g = Game(clock_on=True)
    g.send(ALICE, "x", "At the end of nday 1: Take Society")
    events = g.midnight(1)
    assert [e.kind for e in events][:3] == ["ministry", "outcome", "scheduled_ran"]
    assert holders(g) == {"Ministry of Society": ALICE} and g.state.clock.nday == 2


def test_hostile_wrapping_lines_are_bounded():
    g = Game()
    nested = g.send(DAVE, "x", "BEGIN TRANSACTION\nBEGIN TRANSACTION\nTake Goods\nEND TRANSACTION\nEND TRANSACTION")
    assert said(nested)[1].startswith('! "BEGIN TRANSACTION": the line \'BEGIN TRANSACTION\' is no Game Action')
    assert said(g.send(DAVE, "x", "Repeat 2 times: Repeat 2 times: Take Goods")) == [
        '! "Repeat 2 times: Repeat 2 times: Take Goods": \'Repeat 2 times: Take Goods\' is no Game Action (rule 1-10); nothing done']
    assert said(g.send(DAVE, "x", "Repeat 999999999 times: Take Goods")) == [
        '! "Repeat 999999999 times: Take Goods": a line is repeated 1 to 20 times; nothing done']
    huge = GRAMMAR.read("x", "BEGIN TRANSACTION\n" + "Take Goods\n" * 5000 + "END TRANSACTION")
    assert len(huge.commands) == 1 and len(huge.commands[0].lines) == 100  # type: ignore[attr-defined]
    assert huge.commands[0].unread == ["(the 4,900 lines after the first 100 commands: not read)"]  # type: ignore[attr-defined]
    assert said(g.send(DAVE, "x", "BEGIN TRANSACTION\nTake Goods")) == [
        '! "BEGIN TRANSACTION": the line "(no end line after \'BEGIN TRANSACTION\')" is no Game Action nor assertion, '
        'so the transaction cannot be determined with finality: it failed (rule 1-16); nothing done']
    assert holders(g) == {}
    many = "\n".join("At the end of nday 5: Take Goods" for _ in range(21))
    assert said(g.send(DAVE, "x", many))[-1] == (
        '! "At the end of nday 5: Take Goods": you have 20 actions waiting already (rule 1-10); nothing done')
