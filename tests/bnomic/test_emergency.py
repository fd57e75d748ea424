"""Rule 0: the Panic Buttons of the PEPs, the State of Emergency at four buttons On stopping game
time, its Procedure (the Coordinator, the Pause by midnights and by unobjected increments, Refresh
Proposals, the Ballots counted at Pause 5, 7 and 9) and its end."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.bnomic.support import ALICE, BOB, CAROL, DAVE, ERIN, Game, kinds, said

FOUR = (ALICE, BOB, CAROL, DAVE)


def emergency(g: Game) -> None:
    for who in FOUR:
        g.send(who, "x", "Hit my Panic Button")
    assert g.state.emergency.active


def steps(events) -> list[tuple[str, str]]:
    return [(e.data["what"], e.data["text"]) for e in events if e.kind == "emergency"]


def test_four_buttons_on_stop_game_time_and_absolute_actions_in_it_do_not_occur():
    g = Game()
    g.send(ALICE, "x", "Take Society\nTake Law\nTake Change\nTake Questions\nTake Foreign Relations\nTake Goods\n"
                       "Take MoM\nClock on")
    g.send(BOB, "x", "Usurp Chairman\nAt 2026-01-06T12:00:00Z: Take Goods\nAt the start of nday 2: Hit my Panic Button")
    g.send(ERIN, "x", "Hit my Panic Button")
    for who in (BOB, CAROL, DAVE):
        events = g.send(who, "x", "Hit my Panic Button")
    assert said(events) == ['  "Hit my Panic Button": your Panic Button is On: 4 of 5 Panic Buttons are On (Rule 0)']
    assert steps(events) == [("began", "4 Panic Buttons are On: B Nomic is in a State of Emergency; Game time is "
                                       "stopped (Rule 0). The first PEP to organize the Procedure becomes its "
                                       "Coordinator.")]
    before = g.json()["clock"]
    events = g.midnight(1) + g.midnight(2)
    assert g.json()["clock"] == before == {"nweek": 1, "nday": 1, "nday_name": "Breakday", "on": True, "ndelay": 0,
                                           "voting": False, "nday_changes": 0, "ndelay_changes": 0, "rdays": 0}
    assert [e.data["lines"] for e in events if e.kind == "scheduled_dropped"] == [[
        '! "At 2026-01-06T12:00:00Z: Take Goods": its time fell in a State of Emergency: it does not occur (Rule 0); '
        "nothing done"]]
    assert g.state.midnights == 2 and [a["status"] for a in g.json()["actions"]] == ["pending"]
    assert [s["line"] for s in g.json()["scheduled"]] == ["At the start of nday 2: Hit my Panic Button"]
    g.send(ALICE, "x", "Hit my Panic Button\nStop my Panic Button\nHit my Panic Button")
    g.send(ERIN, "x", "Stop my Panic Button")
    assert g.json()["emergency"]["active"] is True  # Alice, Bob, Carol and Dave On
    events = g.send(BOB, "x", "Stop my Panic Button")
    assert steps(events) == [("ended", "fewer than 4 Panic Buttons are On: the State of Emergency ends and Game time "
                                       "resumes (Rule 0)")]
    g.midnight(3)
    assert g.json()["clock"]["nday"] == 2 and g.json()["clock"]["rdays"] == 1
    assert g.json()["scheduled"] == [] and g.json()["actions"][0]["status"] == "pending"  # Usurp: 2 rdays


def test_the_last_metamin_if_active_coordinates_else_the_first_pep_to_organize():
    g = Game()
    g.send(ALICE, "x", "Take MoM\nResign MoM")
    g.state.players[0].active = True
    events = []
    for who in FOUR:
        events = g.send(who, "x", "Hit my Panic Button")
    assert steps(events)[0][1].endswith("The Emergency Coordinator is Alice, who last held the Ministry of Ministry.")
    assert said(g.send(BOB, "x", "Organize the Procedure")) == [
        '! "Organize the Procedure": the Emergency Coordinator is Alice already (rule 0); nothing done']
    g.send(ALICE, "x", "Stop my Panic Button")
    g.state.players[0].active = False
    events = g.send(ALICE, "x", "Hit my Panic Button")
    assert g.json()["emergency"]["coordinator"] is None
    assert said(g.send(ERIN, "x", "Organize the Procedure")) == [
        '  "Organize the Procedure": you are the Emergency Coordinator (Rule 0, step 2)']


def test_the_pause_grows_at_midnights_and_by_unobjected_increments_once_a_day():
    g = Game()
    emergency(g)
    assert said(g.send(ERIN, "x", "Increment the Pause\nInitialize the Pause\nInitialize the Pause\n"
                                  "Increment the Pause\nIncrement the Pause")) == [
        '! "Increment the Pause": only the Emergency Coordinator does that (rule 0); nothing done',
        '  "Initialize the Pause": the Pause is 0 (Rule 0, step 4)',
        '! "Initialize the Pause": the Pause is initialized already: it is 0 (rule 0); nothing done',
        '  "Increment the Pause": the Pause is incremented at 2026-01-06T01:05:00Z unless a PEP objects (Rule 0, '
        "step 4)",
        '! "Increment the Pause": an increment awaits its 24 hours already (rule 0); nothing done']
    assert said(g.send(ERIN, "x", "Object to the increment")) == [
        '! "Object to the increment": the Emergency Coordinator does not object to his own increment (rule 0); nothing done']
    g.midnight(1)
    assert g.json()["emergency"]["pause"] == 1
    assert said(g.send(ALICE, "x", "Object to the increment")) == [
        '  "Object to the increment": your objection stops the increment (Rule 0, step 4)']
    assert said(g.send(ERIN, "x", "Increment the Pause")) == [
        '  "Increment the Pause": the Pause is incremented at 2026-01-07T01:02:00Z unless a PEP objects (Rule 0, '
        "step 4)"]
    g.send(BOB, "x", "Object to the increment")
    assert said(g.send(ERIN, "x", "Increment the Pause")) == [
        '! "Increment the Pause": the Emergency Coordinator announces an increment once per day (Rule 0, step 4); '
        "nothing done"]
    g.midnight(2)
    g.send(ERIN, "x", "Increment the Pause")  # at 2026-01-07T01:01:00Z
    events = g.midnight(3)
    assert [t for w, t in steps(events)] == ["The Pause is 3 (00:00 UTC)"]
    g.now = g.now.replace(hour=2)
    assert said(g.send(ZED, "x", "Object to the increment")) == [
        '! "Object to the increment": only a PEP (Potential Emergency Participant) takes part in the Procedure '
        "(rule 0); nothing done"]
    assert g.json()["emergency"]["pause"] == 4  # the increment came at 01:01, before Zed's mail


ZED = "zed@b.test"


def test_refresh_proposals_a_ballot_at_pause_5_and_a_unique_most_at_7_applied_ending_the_emergency():
    g = Game()
    emergency(g)
    g.send(ERIN, "x", "Emergency forum: the players' list\nInitialize the Pause")
    assert said(g.send(BOB, "Refresh Proposal: Restart", "Alice gains 3 points\nErin loses 2 hit points\n"
                                                       "Bob gains m5\nThe Clock starts afresh.")) == [
        '  "Refresh Proposal: Restart": Refresh Proposal 1, with 3 change lines']
    assert said(g.send(BOB, "Refresh Proposal: Again", "Bob gains 1 point")) == [
        '! "Refresh Proposal: Again": you have submitted a Refresh Proposal in this Emergency already (rule 0); nothing done']
    g.send(CAROL, "Refresh Proposal: Nothing", "Zed gains 1 point")
    assert g.json()["emergency"]["refresh_proposals"] == [{"number": 1, "by": BOB, "title": "Restart"},
                                                          {"number": 2, "by": CAROL, "title": "Nothing"}]
    for n in range(1, 5):
        g.midnight(n)
    assert said(g.send(ALICE, "x", "Refresh vote 1")) == [
        '! "Refresh vote 1": no Ballot is open for votes (rule 0); nothing done']
    assert steps(g.midnight(5))[1] == ("ballot", "The first-round Ballot: 1. Restart; 2. Nothing. Each PEP casts a "
                                                 "single vote: 'Refresh vote N' (Rule 0, steps 6, 7)")
    assert said(g.send(DAVE, "Refresh Proposal: Late", "Dave gains 9 points")) == [
        '! "Refresh Proposal: Late": Refresh Proposals are submitted before the first Ballot (Rule 0, step 5); '
        "nothing done"]
    g.send(ALICE, "x", "Refresh vote 1")
    g.send(BOB, "x", "Refresh vote 1")
    assert said(g.send(CAROL, "x", "Refresh vote 3\nRefresh vote 2\nRefresh vote 1")) == [
        '! "Refresh vote 3": Refresh Proposal 3 is not on the Ballot: 1, 2 (rule 0); nothing done',
        '  "Refresh vote 2": your vote for Refresh Proposal 2 in round 1 is recorded',
        '! "Refresh vote 1": you have voted in round 1 already: each PEP casts a single vote (rule 0); nothing done']
    assert g.json()["emergency"] | {"peps": None, "panic_buttons": None} == {
        "active": True, "coordinator": ERIN, "forum": "the players' list", "pause": 5, "round": 1, "ballot": [1, 2],
        "votes": {ALICE: 1, BOB: 1, CAROL: 2}, "selected": None, "peps": None, "panic_buttons": None,
        "refresh_proposals": [{"number": 1, "by": BOB, "title": "Restart"}, {"number": 2, "by": CAROL,
                                                                              "title": "Nothing"}]}
    g.midnight(6)
    events = g.midnight(7)
    assert steps(events) == [
        ("pause", "The Pause is 7 (00:00 UTC)"),
        ("count", "Round 1's votes: Refresh Proposal 1: 2, Refresh Proposal 2: 1"),
        ("selected", "Refresh Proposal 1, 'Restart', is selected (the most votes in round 1); its changes occur: "
                     "Alice has 3 points; Erin has 8 Hit Points; Bob has m55. Every Panic Button becomes Off (Rule 0, "
                     "step 12)"),
        ("ended", "fewer than 4 Panic Buttons are On: the State of Emergency ends and Game time resumes (Rule 0)")]
    assert "threat_flag" in kinds(events) and g.json()["threat_flag"] == "Jolly Roger"
    assert g.json()["emergency"] == {
        "active": False, "coordinator": None, "forum": None, "pause": None, "round": None, "ballot": [], "votes": {},
        "refresh_proposals": [], "selected": None, "peps": [ALICE, BOB, CAROL, DAVE, ERIN],
        "panic_buttons": {ALICE: "off", BOB: "off", CAROL: "off", DAVE: "off", ERIN: "off"}}
    assert g.json()["clock"]["rdays"] == 0
    assert said(g.send(ERIN, "x", "Applied refresh 1: the Clock started afresh\nApplied refresh 2: x")) == [
        '  "Applied refresh 1: the Clock started afresh": recorded: Refresh Proposal 1 implemented: the Clock started '
        "afresh",
        '! "Applied refresh 2: x": no selected Refresh Proposal 2 of an Emergency you coordinated (rule 0); nothing done']
    g.midnight(8)
    assert g.json()["clock"]["rdays"] == 1  # the midnight the Emergency ended in was no game time: the next is


def test_ties_go_to_a_second_ballot_and_then_to_the_coordinators_selection():
    g = Game()
    emergency(g)
    g.send(ERIN, "x", "Initialize the Pause")
    for who, title, body in ((BOB, "B", "Bob gains 1 point"), (CAROL, "C", "Carol gains 1 point"),
                             (ERIN, "E", "Set hit points of Dave to -4")):
        g.send(who, f"Refresh Proposal: {title}", body)
    for n in range(1, 6):
        g.midnight(n)
    for who, n in ((ALICE, 1), (BOB, 2), (CAROL, 3)):
        g.send(who, "x", f"Refresh vote {n}")
    g.midnight(6)
    assert steps(g.midnight(7))[1:] == [
        ("count", "Round 1's votes: Refresh Proposal 1: 1, Refresh Proposal 2: 1, Refresh Proposal 3: 1"),
        ("ballot", "A tie: the second-round Ballot: 1. B; 2. C; 3. E. Each PEP casts a single vote: 'Refresh vote N' "
                   "(Rule 0, steps 9, 10)")]
    for who, n in ((ALICE, 1), (BOB, 3), (CAROL, 1), (DAVE, 3)):
        g.send(who, "x", f"Refresh vote {n}")
    assert said(g.send(ERIN, "x", "Select refresh proposal 3")) == [
        '! "Select refresh proposal 3": the Emergency Coordinator selects only when the second round\'s count is '
        "tied (Rule 0, step 11); nothing done"]
    g.midnight(8)
    assert steps(g.midnight(9))[1:] == [
        ("count", "Round 2's votes: Refresh Proposal 1: 2, Refresh Proposal 2: 0, Refresh Proposal 3: 2"),
        ("count", "A tie again: the Emergency Coordinator selects one of 1, 3: 'Select refresh proposal N' (Rule 0, "
                  "step 11)")]
    assert said(g.send(ERIN, "x", "Refresh vote 1\nSelect refresh proposal 2\nSelect refresh proposal 3")) == [
        '! "Refresh vote 1": no Ballot is open for votes (rule 0); nothing done',
        '! "Select refresh proposal 2": Refresh Proposal 2 is not one of the tied: 1, 3 (rule 0); nothing done',
        '  "Select refresh proposal 3": Refresh Proposal 3 is selected (Rule 0, step 11)']
    assert g.json()["emergency"]["active"] is False
    assert (g.player(DAVE)["hit_points"], g.player(DAVE)["dead"]) == (0, True)


def test_with_no_refresh_proposal_nothing_is_selected_and_the_emergency_lasts():
    g = Game()
    emergency(g)
    g.send(ALICE, "x", "Organize the Procedure\nInitialize the Pause")
    events = [e for n in range(1, 9) for e in g.midnight(n)]
    assert [t for w, t in steps(events) if w != "pause"] == [
        "The first-round Ballot: empty. Each PEP casts a single vote: 'Refresh vote N' (Rule 0, steps 6, 7)",
        "No Refresh Proposal is on the Ballot: none can be selected; the Emergency lasts until fewer than four Panic "
        "Buttons are On (Rule 0)"]
    assert g.json()["emergency"] | {"peps": None, "panic_buttons": None} == {
        "active": True, "coordinator": ALICE, "forum": None, "pause": 8, "round": 1, "ballot": [], "votes": {},
        "refresh_proposals": [], "selected": None, "peps": None, "panic_buttons": None}
    assert said(g.send(BOB, "Refresh Proposal: Late", "Bob gains 1 point")) == [
        '! "Refresh Proposal: Late": Refresh Proposals are submitted before the first Ballot (Rule 0, step 5); '
        "nothing done"]


def test_peps_below_four_players_are_those_of_the_last_moment_there_were_four():
    g = Game()
    g.send(DAVE, "x", "Forfeit")
    g.send(ERIN, "x", "Forfeit")
    assert g.json()["emergency"]["peps"] == [ALICE, BOB, CAROL, ERIN]  # the four after Dave left
    assert said(g.send(DAVE, "x", "Hit my Panic Button")) == [
        '! "Hit my Panic Button": only a PEP (Potential Emergency Participant) has a Panic Button (rule 0); '
        "nothing done"]
    assert said(g.send(ERIN, "x", "Hit my Panic Button")) == [
        '  "Hit my Panic Button": your Panic Button is On: 1 of 4 Panic Buttons are On (Rule 0)']
    g.send(ZED, "x", "Join as Zed")
    assert g.json()["emergency"]["peps"] == [ALICE, BOB, CAROL, ZED]
    assert g.json()["emergency"]["panic_buttons"] == {ALICE: "off", BOB: "off", CAROL: "off", ZED: "off"}


def test_with_never_four_players_the_peps_are_the_players():
    g = Game(players=["Alice <alice@b.test>", "Bob <bob@b.test>"])
    assert g.json()["emergency"]["peps"] == [ALICE, BOB]
    g.send(BOB, "x", "Forfeit")
    assert g.json()["emergency"]["panic_buttons"] == {ALICE: "off"}


LINES = ["Hit my Panic Button", "Stop my Panic Button", "Organize the Procedure", "Emergency forum: x",
         "Initialize the Pause", "Increment the Pause", "Object to the increment", "Refresh vote 1", "Refresh vote 2",
         "Select refresh proposal 1", "Applied refresh 1: ok", "Take MoM", "Hoist the Polka Dots flag", "Forfeit",
         "Join as Zed", "At 2026-01-06T00:30:00Z: Hit my Panic Button", "Set the message of the nweek: hi",
         "Support A1", "Object to A1", "Renumber consultation 1 to 2"]
step = st.one_of(
    st.tuples(st.just("mail"), st.sampled_from([ALICE, BOB, CAROL, DAVE, ZED]),
              st.lists(st.sampled_from(LINES), min_size=1, max_size=4)),
    st.tuples(st.just("refresh"), st.sampled_from([ALICE, BOB, CAROL, DAVE]),
              st.sampled_from(["Alice gains 1 point", "Remove nothing", "Set hit points of Bob to -1", ""])),
    st.tuples(st.just("midnights"), st.integers(1, 4)))


def fold(steps: list[tuple]) -> Game:
    g = Game(players=["Alice <alice@b.test>", "Bob <bob@b.test>", "Carol <carol@b.test>", "Dave <dave@b.test>"])
    for s in steps:
        if s[0] == "mail":
            g.send(s[1], "x", "\n".join(s[2]))
        elif s[0] == "refresh":
            g.send(s[1], "Refresh Proposal: R", s[2])
        else:
            g.midnight(g.state.midnights + s[1])
        g.json()
    return g


@settings(max_examples=60, deadline=None)
@given(st.lists(step, max_size=30))
def test_any_emergency_commands_fold_without_fault_and_the_same_way_twice(steps):
    assert fold(steps).json() == fold(steps).json()
