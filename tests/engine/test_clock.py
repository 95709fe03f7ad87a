"""The game clock (engine/clock.py, R-TIM-1..4) against hand-computed times on a fake source."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.clock import (
    Bonus,
    Clock,
    ClockError,
    ClockState,
    FlagFell,
    MoveLimit,
    MoveTimeCalled,
    MoveTimeForfeit,
    Scope,
    Stage,
    TimeControl,
    TimeControlError,
    TimeWarning,
)
from engine.color import Color

B, W = Color.BLACK, Color.WHITE


class FakeTime:
    """A hand-driven monotonic source: ``at(t)`` sets the time."""

    def __init__(self, start: float = 0.0) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t

    def at(self, t: float) -> None:
        self.t = t


def make(
    control: str, start: float = 0.0, warnings: tuple[float, ...] = ()
) -> tuple[Clock, FakeTime]:
    """A clock for ``control`` on a fake source at ``start``; no warnings unless asked for."""
    time = FakeTime(start)
    return Clock(TimeControl.from_string(control), time, warnings=warnings), time


def times(clock: Clock) -> tuple[float, float]:
    return clock.remaining(B), clock.remaining(W)


# -- sudden death ---------------------------------------------------------------------------------


def test_sudden_death_charges_each_side_its_own_thinking_time() -> None:
    clock, time = make("300")
    assert clock.state is ClockState.READY and times(clock) == (300, 300)
    clock.start(B)
    time.at(100)
    assert clock.move_made(B) is True
    assert clock.running is W and times(clock) == (200, 300)
    time.at(150)
    assert times(clock) == (200, 250)
    clock.move_made(W)
    time.at(170)
    assert times(clock) == (180, 250)
    assert clock.moves(B) == 1 and clock.moves(W) == 1
    assert clock.poll() == ()


def test_flag_falls_exactly_at_zero_and_only_once() -> None:
    clock, time = make("5")
    clock.start(B)
    time.at(4.5)
    assert clock.poll() == () and clock.remaining(B) == 0.5
    time.at(5)
    assert clock.poll() == (FlagFell(B, "R-END-3"),)
    assert clock.timed_out is B and clock.state is ClockState.STOPPED and clock.running is None
    time.at(9)
    assert clock.poll() == ()
    assert times(clock) == (0, 5)
    assert clock.move_made(B) is False  # too late: the flag fell first


def test_a_late_poll_still_reports_zero_not_a_negative_time() -> None:
    clock, time = make("60")
    clock.start(W)
    time.at(75)
    assert clock.remaining(W) == 0
    assert clock.poll() == (FlagFell(W, "R-END-3"),)


def test_a_move_recorded_after_the_flag_is_refused_even_without_a_poll() -> None:
    clock, time = make("60")
    clock.start(B)
    time.at(61)
    assert clock.move_made(B) is False
    assert clock.poll() == (FlagFell(B, "R-END-3"),)


# -- increments and delays -----------------------------------------------------------------------


def test_fischer_adds_the_increment_after_every_move() -> None:
    clock, time = make("300+5")
    clock.start(B)
    time.at(12)
    clock.move_made(B)  # 300 - 12 + 5
    time.at(32)
    clock.move_made(W)  # 300 - 20 + 5
    clock.move_made(B)  # 293 - 0 + 5
    assert times(clock) == (298, 285)


def test_us_delay_waits_before_counting_and_never_accumulates() -> None:
    clock, time = make("300d5")
    clock.start(B)
    time.at(3)
    assert clock.remaining(B) == 300  # inside the delay the display stands still
    time.at(8)
    assert clock.remaining(B) == 297
    clock.move_made(B)
    time.at(10)
    clock.move_made(W)  # 2 s inside the delay: nothing charged, nothing banked
    time.at(11)
    clock.move_made(B)
    assert times(clock) == (297, 300)


def test_us_delay_flag_falls_after_delay_plus_time() -> None:
    clock, time = make("10d5")
    clock.start(B)
    time.at(14.5)
    assert clock.poll() == () and clock.remaining(B) == 0.5
    time.at(15)
    assert clock.poll() == (FlagFell(B, "R-END-3"),)


def test_bronstein_counts_down_then_gives_back_at_most_the_time_used() -> None:
    clock, time = make("300b5")
    clock.start(B)
    time.at(3)
    assert clock.remaining(B) == 297  # Bronstein counts down at once
    clock.move_made(B)  # gives back the 3 s used, not the full 5
    assert clock.remaining(B) == 300
    time.at(11)
    clock.move_made(W)  # 8 s used, 5 given back
    assert clock.remaining(W) == 297
    clock.move_made(B)  # 0 s used, nothing given back
    assert times(clock) == (300, 297)


def test_bronstein_flag_falls_when_the_time_runs_out_regardless_of_delay() -> None:
    clock, time = make("10b5")
    clock.start(B)
    time.at(10)
    assert clock.poll() == (FlagFell(B, "R-END-3"),)


# -- moves in time (R-TIM-3) ----------------------------------------------------------------------


def test_moves_in_time_allotment_when_both_sides_made_the_moves_with_carry_over() -> None:
    clock, time = make("2/100:50")
    clock.start(B)
    time.at(30)
    clock.move_made(B)  # B 70
    time.at(70)
    clock.move_made(W)  # W 60
    assert clock.moves_to_go(B) == 1 and clock.moves_to_go(W) == 1
    time.at(90)
    clock.move_made(B)  # B 50, two moves made; White has not made both yet
    assert times(clock) == (50, 60) and clock.moves_to_go(B) == 0
    time.at(100)
    clock.move_made(W)  # W 50; both made 2 moves: each gets 50 more on top of what is left
    assert times(clock) == (100, 100)
    assert clock.moves_to_go(B) is None  # now sudden death


def test_last_moves_in_time_stage_repeats() -> None:
    clock, time = make("1/60")
    clock.start(B)
    time.at(10)
    clock.move_made(B)
    time.at(30)
    clock.move_made(W)  # B 50 + 60, W 40 + 60
    time.at(40)
    clock.move_made(B)
    time.at(50)
    clock.move_made(W)  # B 100 + 60, W 90 + 60
    assert times(clock) == (160, 150) and clock.moves_to_go(B) == 1


def test_running_out_before_completing_the_moves_loses_under_r_tim_3() -> None:
    clock, time = make("3/100:50")
    clock.start(B)
    time.at(40)
    clock.move_made(B)
    clock.move_made(W)
    time.at(100)
    assert clock.poll() == (FlagFell(B, "R-TIM-3"),)


def test_flag_in_the_sudden_death_stage_cites_the_loss_on_time() -> None:
    clock, time = make("1/10:5")
    clock.start(B)
    clock.move_made(B)
    clock.move_made(W)  # both get 5 more: B 15, W 15
    time.at(15)
    assert clock.poll() == (FlagFell(B, "R-END-3"),)


# -- per-move limit (R-TIM-1, R-TIM-2) ------------------------------------------------------------


def test_per_move_time_is_called_at_five_minutes_and_forfeits_a_minute_later() -> None:
    clock, time = make("move:300")
    clock.start(B)
    time.at(100)
    assert times(clock) == (260, 360)
    time.at(299.5)
    assert clock.poll() == ()
    time.at(300)
    assert clock.poll() == (MoveTimeCalled(B, "R-TIM-1"),)
    time.at(359.5)
    assert clock.poll() == ()
    time.at(360)
    assert clock.poll() == (MoveTimeForfeit(B, "R-TIM-1"),)
    assert clock.timed_out is B and clock.remaining(B) == 0


def test_a_move_after_time_is_called_but_within_the_minute_stands() -> None:
    clock, time = make("move:300")
    clock.start(B)
    time.at(330)
    assert clock.move_made(B) is True
    assert clock.poll() == (MoveTimeCalled(B, "R-TIM-1"),)
    assert clock.move_time() == 0 and clock.remaining(W) == 360
    time.at(629)
    assert clock.poll() == ()  # White's move has its own five minutes
    time.at(630)
    assert clock.poll() == (MoveTimeCalled(W, "R-TIM-1"),)


def test_one_capture_positions_get_the_shorter_limit() -> None:
    clock, time = make("move:300,capture:60+30")
    clock.start(B, one_capture=True)
    time.at(60)
    assert clock.poll() == (MoveTimeCalled(B, "R-TIM-2"),)
    time.at(80)
    clock.move_made(B, one_capture=False)  # White's position has several captures or none
    time.at(380)
    assert clock.poll() == (MoveTimeCalled(W, "R-TIM-1"),)
    clock.move_made(W, one_capture=True)
    time.at(469)
    assert clock.remaining(B) == 1
    time.at(470)
    assert clock.poll() == (MoveTimeCalled(B, "R-TIM-2"), MoveTimeForfeit(B, "R-TIM-2"))


def test_per_move_adjust_and_pause_change_only_the_current_move() -> None:
    clock, time = make("move:120+30")
    clock.start(B)
    time.at(100)
    clock.adjust(B, 20)  # the referee gives back 20 s of this move
    assert clock.move_time() == 80 and clock.remaining(B) == 70
    clock.pause()
    time.at(1000)
    clock.resume()
    time.at(1040)
    assert clock.poll() == (MoveTimeCalled(B, "R-TIM-1"),)
    with pytest.raises(ClockError, match="side to move"):
        clock.adjust(W, 10)


# -- pause, resume, adjust -------------------------------------------------------------------------


def test_pause_stops_the_running_side_and_resume_restarts_it() -> None:
    clock, time = make("300")
    clock.start(B)
    time.at(10)
    clock.pause()
    assert clock.state is ClockState.PAUSED and clock.running is None and clock.to_move is B
    time.at(100)
    assert clock.remaining(B) == 290
    with pytest.raises(ClockError, match="cannot pause: the clock is paused"):
        clock.pause()
    with pytest.raises(ClockError, match="paused"):
        clock.move_made(B)
    clock.resume()
    time.at(110)
    assert times(clock) == (280, 300)
    with pytest.raises(ClockError, match="cannot resume: the clock is running"):
        clock.resume()


def test_hand_over_passes_the_turn_without_a_move_or_a_bonus() -> None:
    """A referee's correction gives the turn back: time used is charged, nothing earned."""
    clock, time = make("300+5")
    clock.start(B)
    time.at(10)
    clock.move_made(B)  # Black 295 (300 - 10 + 5)
    time.at(30)
    clock.hand_over(B)  # the correction: it is Black's move after all
    assert clock.running is B and times(clock) == (295, 280)
    assert clock.moves(W) == 0 and clock.moves(B) == 1
    time.at(40)
    assert times(clock) == (285, 280)
    clock.hand_over(B)  # already Black's turn: nothing changes
    assert times(clock) == (285, 280)
    clock.pause()
    clock.hand_over(W)
    assert clock.state is ClockState.PAUSED and clock.to_move is W
    time.at(90)
    assert times(clock) == (285, 280)
    clock.stop()
    with pytest.raises(ClockError, match="the turn cannot pass: the clock is stopped"):
        clock.hand_over(B)


def test_hand_over_on_a_per_move_clock_starts_the_new_side_s_move_afresh() -> None:
    clock, time = make("move:300")
    clock.start(B)
    time.at(100)
    clock.hand_over(W)
    assert clock.running is W and times(clock) == (360, 360)  # the call at 300, the grace to 360


def test_a_pause_inside_the_us_delay_does_not_restart_the_delay() -> None:
    clock, time = make("300d5")
    clock.start(B)
    time.at(3)
    clock.pause()
    time.at(50)
    clock.resume()
    time.at(53)
    assert clock.remaining(B) == 299  # 6 s used on the move, 5 of them free


def test_adjust_adds_and_takes_time() -> None:
    clock, time = make("300")
    clock.start(B)
    time.at(20)
    clock.adjust(W, 30)
    clock.adjust(B, -50)
    assert times(clock) == (230, 330)
    clock.move_made(B)
    assert times(clock) == (230, 330)


def test_taking_more_than_is_left_makes_the_flag_fall_at_zero() -> None:
    clock, time = make("300")
    clock.start(B)
    time.at(20)
    clock.adjust(W, -1000)  # White is not even on move
    assert clock.poll() == (FlagFell(W, "R-END-3"),)
    assert times(clock) == (280, 0)
    with pytest.raises(ClockError, match="White has already lost"):
        clock.adjust(W, 10)


def test_misuse_names_what_is_wrong() -> None:
    clock, time = make("300")
    with pytest.raises(ClockError, match="ready"):
        clock.move_made(B)
    with pytest.raises(ClockError, match="has not started"):
        clock.new_game()
    clock.start(B)
    with pytest.raises(ClockError, match="already started"):
        clock.start(W)
    with pytest.raises(ClockError, match="Black's turn on the clock, not White's"):
        clock.move_made(W)
    with pytest.raises(ValueError, match="finite"):
        clock.adjust(B, float("nan"))
    with pytest.raises(ValueError, match="warning threshold"):
        Clock(TimeControl.from_string("300"), time, warnings=(10, -1))


def test_a_time_source_going_backwards_never_gives_time_back() -> None:
    clock, time = make("300", start=1000)
    clock.start(B)
    time.at(1010)
    assert clock.remaining(B) == 290
    time.at(990)
    assert clock.remaining(B) == 290


# -- warnings -------------------------------------------------------------------------------------


def test_each_warning_once_then_the_flag() -> None:
    clock, time = make("100", warnings=(60, 10))
    clock.start(B)
    time.at(39.5)
    assert clock.poll() == ()
    time.at(40)
    assert clock.poll() == (TimeWarning(B, 60, 60),)
    time.at(50)
    assert clock.poll() == ()
    time.at(90)
    assert clock.poll() == (TimeWarning(B, 10, 10),)
    time.at(100)
    assert clock.poll() == (FlagFell(B, "R-END-3"),)


def test_a_jump_past_several_thresholds_gives_only_the_lowest_warning() -> None:
    clock, time = make("100", warnings=(60, 10))
    clock.start(W)
    time.at(95)
    assert clock.poll() == (TimeWarning(W, 10, 5),)
    time.at(96)
    assert clock.poll() == ()


def test_a_warning_comes_again_after_an_increment_lifts_the_time_above_it() -> None:
    clock, time = make("70+20", warnings=(60,))
    clock.start(B)
    time.at(15)
    assert clock.poll() == (TimeWarning(B, 60, 55),)
    clock.move_made(B)  # 55 + 20 = 75: above 60 again
    clock.move_made(W)
    time.at(35)
    assert clock.poll() == (TimeWarning(B, 60, 55),)


def test_a_flag_falling_between_polls_is_not_preceded_by_a_warning() -> None:
    clock, time = make("100", warnings=(10,))
    clock.start(B)
    time.at(200)
    assert clock.poll() == (FlagFell(B, "R-END-3"),)


# -- match clock (R-TIM-4) -----------------------------------------------------------------------


def test_apca_match_time_carries_from_game_one_into_game_two() -> None:
    clock, time = make("apca-match")
    assert clock.control.scope is Scope.MATCH and times(clock) == (2700, 2700)
    clock.start(B)
    time.at(600)
    clock.move_made(B)
    time.at(1500)
    clock.move_made(W)
    time.at(1600)
    clock.stop()  # the game is decided: Black's last 100 s are charged
    assert times(clock) == (2000, 1800) and clock.state is ClockState.STOPPED
    clock.new_game()
    assert clock.game == 2 and clock.state is ClockState.READY and times(clock) == (2000, 1800)
    time.at(5000)  # the break between games is nobody's time
    clock.start(W)  # colours alternate (R-TRN-2)
    time.at(6800)
    assert clock.poll() == (FlagFell(W, "R-TIM-4"),)


def test_a_side_out_of_match_time_loses_the_next_game_at_once() -> None:
    clock, time = make("match:100")
    clock.start(B)
    time.at(100)
    assert clock.poll() == (FlagFell(B, "R-TIM-4"),)
    clock.new_game()
    clock.start(W)
    assert clock.poll() == (FlagFell(B, "R-TIM-4"),)


def test_apca_game_complaint_variant_gives_thirty_minutes_for_each_game() -> None:
    clock, time = make("apca-game")
    assert times(clock) == (1800, 1800)
    clock.start(B)
    time.at(1000)
    clock.move_made(B)
    clock.new_game()
    assert clock.game == 2 and times(clock) == (1800, 1800)


# -- snapshots ------------------------------------------------------------------------------------


def test_resume_from_a_snapshot_does_not_charge_the_outage() -> None:
    clock, time = make("300d5")
    clock.start(B)
    time.at(40)
    clock.move_made(B)  # B 265
    time.at(53)
    data = json.loads(json.dumps(clock.to_dict()))
    # The service crashes here; the machine reboots, so the new monotonic source starts low.
    after = FakeTime(7.0)
    resumed = Clock.from_dict(data, after)
    assert resumed.running is W and times(resumed) == (265, 292)
    after.at(17.0)  # White thinks on: 13 + 10 s on this move, 5 of them free
    assert times(resumed) == (265, 282)
    resumed.move_made(W)
    assert resumed.running is B and resumed.moves(W) == 1


def test_a_resumed_clock_does_not_repeat_events_and_keeps_pending_ones() -> None:
    clock, time = make("100", warnings=(60,))
    clock.start(B)
    time.at(50)
    assert clock.poll() == (TimeWarning(B, 60, 50),)
    time.at(55)
    clock.adjust(W, -45)  # White down to 55: a warning now waits for the next poll
    resumed = Clock.from_dict(clock.to_dict(), FakeTime(0))
    assert resumed.poll() == (TimeWarning(W, 60, 55),)
    assert resumed.poll() == ()


def test_a_paused_snapshot_resumes_paused() -> None:
    clock, time = make("move:300")
    clock.start(W, one_capture=False)
    time.at(310)
    clock.pause()
    clock.poll()
    after = FakeTime(0)
    resumed = Clock.from_dict(clock.to_dict(), after)
    after.at(1000)
    assert resumed.state is ClockState.PAUSED and resumed.move_time() == 310
    resumed.resume()
    after.at(1050)
    assert resumed.poll() == (MoveTimeForfeit(W, "R-TIM-1"),)  # "time" was already called


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("remaining"), "missing 'remaining'"),
        (lambda d: d.update(version=7), "version must be 1"),
        (lambda d: d.update(control="5x"), "'5x' is not a stage"),
        (lambda d: d.update(to_move="red"), "'to_move' should be black, white or null"),
        (lambda d: d["remaining"].update(white="lots"), "'white' should be float.*'remaining'"),
        (lambda d: d.update(stage=3), "stage 3"),
        (lambda d: d.update(warnings=[0]), "warning threshold must be"),
        (lambda d: d["warned"].update(black=["60"]), "'warned.black' should hold numbers"),
        (lambda d: d["pending"].append({"event": "Nope"}), "bad pending event"),
    ],
)
def test_a_bad_snapshot_names_the_field(change, message) -> None:
    clock, _ = make("300")
    clock.start(B)
    data = clock.to_dict()
    change(data)
    with pytest.raises(ClockError, match=message):
        Clock.from_dict(data, FakeTime())


# -- time control strings -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "control"),
    [
        ("300", TimeControl((Stage(300),))),
        ("300+5", TimeControl((Stage(300),), Bonus.FISCHER, 5)),
        ("300d5", TimeControl((Stage(300),), Bonus.DELAY, 5)),
        ("300b5", TimeControl((Stage(300),), Bonus.BRONSTEIN, 5)),
        ("90.5+2.5", TimeControl((Stage(90.5),), Bonus.FISCHER, 2.5)),
        ("40/7200:1800", TimeControl((Stage(7200, 40), Stage(1800)))),
        (
            "40/7200:20/3600:1800+30",
            TimeControl((Stage(7200, 40), Stage(3600, 20), Stage(1800)), Bonus.FISCHER, 30),
        ),
        ("25/3600", TimeControl((Stage(3600, 25),))),
        ("move:300", TimeControl(move_limit=MoveLimit(300, 60))),
        ("move:120+30", TimeControl(move_limit=MoveLimit(120, 30))),
        ("move:300,capture:60", TimeControl(move_limit=MoveLimit(300, 60, 60))),
        ("move:300,capture:60+30", TimeControl(move_limit=MoveLimit(300, 60, 60, 30))),
        ("match:3600", TimeControl((Stage(3600),), scope=Scope.MATCH)),
        ("apca-match", TimeControl((Stage(2700),), scope=Scope.MATCH)),
    ],
)
def test_parse_and_render_round_trip(text: str, control: TimeControl) -> None:
    assert TimeControl.from_string(text) == control
    assert str(control) == text
    assert TimeControl.from_string(str(control)) == control


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        (" 300+0 ", "300"),
        ("APCA-Match", "apca-match"),
        ("match:2700", "apca-match"),
        ("apca-game", "1800"),
        ("move:300+60", "move:300"),
        ("move:300,capture:60+60", "move:300,capture:60"),
        ("move:300+60,capture:60+30", "move:300,capture:60+30"),
        ("300.0", "300"),
    ],
)
def test_equivalent_spellings_render_one_way(text: str, canonical: str) -> None:
    assert str(TimeControl.from_string(text)) == canonical


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty time control"),
        ("five minutes", "'five minutes' is not a stage"),
        ("300+", "'300\\+' is not a stage"),
        ("0", "a stage's time must be a finite number of seconds above 0, got 0.0"),
        ("40/:100", "'40/' is not a stage"),
        ("0/7200", "move count must be 1 or more, got 0"),
        ("1800:40/7200", "only the last stage may be sudden death"),
        ("40/7200:", "'' is not a stage"),
        ("300x5", "'300x5' is not a stage"),
        ("move:", "should be move:SECONDS or move:SECONDS\\+GRACE"),
        ("move:300,", "'' after ',' should be capture:SECONDS"),
        ("move:300,cap:60", "'cap:60' after ',' should be capture:SECONDS"),
        (
            "move:60,capture:300",
            "one-capture limit 300\\+60 must not be longer than the normal 60\\+60",
        ),
        ("match:40/7200", "a match clock \\(R-TIM-4\\) holds one time"),
        ("move:300+0", "per-move grace must be a finite number of seconds above 0"),
    ],
)
def test_parse_errors_name_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(TimeControlError, match=message) as caught:
        TimeControl.from_string(text)
    assert repr(text) in str(caught.value) or not text


def test_a_control_needs_exactly_one_kind_of_time() -> None:
    with pytest.raises(TimeControlError, match="either stages of time or a per-move limit"):
        TimeControl()
    with pytest.raises(TimeControlError, match="takes no increment"):
        TimeControl(move_limit=MoveLimit(), bonus=Bonus.FISCHER, bonus_seconds=5)
    with pytest.raises(TimeControlError, match="bonus FISCHER does not fit"):
        TimeControl((Stage(300),), Bonus.FISCHER)


# -- properties -----------------------------------------------------------------------------------

STEPS = st.lists(
    st.tuples(st.sampled_from(["wait", "move", "pause", "resume", "poll"]), st.integers(0, 400)),
    max_size=40,
)


def play(clock: Clock, time: FakeTime, steps: list[tuple[str, int]], after_step=None) -> None:
    """Start ``clock`` and drive it through ``steps`` (skipping those not possible just then);
    a wait is a quarter second per unit, so every time stays exact."""
    clock.start(B)
    for action, amount in steps:
        state = clock.state
        if action == "wait":
            time.at(time.t + amount / 4)
        elif action == "move" and state is ClockState.RUNNING:
            clock.move_made(clock.to_move)
        elif action == "pause" and state is ClockState.RUNNING:
            clock.pause()
        elif action == "resume" and state is ClockState.PAUSED:
            clock.resume()
        else:
            clock.poll()
        if after_step is not None:
            after_step()


@settings(max_examples=150, deadline=None)
@given(control=st.sampled_from(["300", "300d5", "match:300"]), steps=STEPS)
def test_remaining_never_increases_without_increment_or_adjust(control: str, steps) -> None:
    clock, time = make(control)
    seen = [times(clock)]
    play(clock, time, steps, lambda: seen.append(times(clock)))
    for before, after in itertools.pairwise(seen):
        assert after[0] <= before[0] and after[1] <= before[1]
        assert min(after) >= 0


@settings(max_examples=150, deadline=None)
@given(steps=STEPS)
def test_sudden_death_charges_exactly_the_time_a_side_was_running(steps) -> None:
    clock, time = make("300")
    ran = {B: 0.0, W: 0.0}
    last = [time.t, B]  # start() sets Black running at once

    def account() -> None:
        if last[1] is not None:
            ran[last[1]] += time.t - last[0]
        last[:] = [time.t, clock.running]
        for side in Color:
            expected = 0.0 if clock.timed_out is side else 300 - ran[side]
            assert clock.remaining(side) == expected

    play(clock, time, steps, account)


@settings(max_examples=150, deadline=None)
@given(control=st.sampled_from(["300", "300+5", "300b5", "300d5"]), steps=STEPS)
def test_each_move_costs_what_its_bonus_rule_says(control: str, steps) -> None:
    clock, time = make(control)
    bonus, kind = clock.control.bonus_seconds, clock.control.bonus
    banked = {B: 300.0, W: 300.0}  # each side's time when its turn began
    clock.start(B)
    for action, amount in steps:
        if action == "wait":
            time.at(time.t + amount / 4)
        elif clock.state is ClockState.RUNNING:
            side, used = clock.to_move, clock.move_time()
            assert clock.move_made(side)
            earned = {
                Bonus.NONE: -used,
                Bonus.FISCHER: bonus - used,
                Bonus.BRONSTEIN: min(bonus, used) - used,  # never more than the time used
                Bonus.DELAY: -max(0.0, used - bonus),  # the delay is never banked
            }[kind]
            assert clock.remaining(side) == banked[side] + earned
            banked[side] = clock.remaining(side)


@settings(max_examples=150, deadline=None)
@given(
    control=st.sampled_from(["300", "300b5", "300d5", "2/200:100+2", "move:300,capture:60"]),
    steps=STEPS,
    outage=st.integers(-(10**6), 10**6),
    later=st.integers(0, 400),
)
def test_a_snapshot_resumes_exactly_where_it_stood(control: str, steps, outage, later) -> None:
    clock, time = make(control, warnings=(60, 10))
    play(clock, time, steps)
    clock.poll()
    after = FakeTime(time.t + outage)
    resumed = Clock.from_dict(json.loads(json.dumps(clock.to_dict())), after)
    assert resumed.to_dict() == clock.to_dict()
    time.at(time.t + later)
    after.at(after.t + later)
    assert times(resumed) == times(clock)
    assert resumed.poll() == clock.poll()
    assert resumed.state is clock.state and resumed.to_move is clock.to_move


def test_r_tim_4_match_time_follows_the_player_when_colours_change() -> None:
    """R-TRN-2 swaps colours between the games of a match; each player keeps their own time."""
    now = [0.0]
    clock = Clock(TimeControl.from_string("apca-match"), lambda: now[0])
    clock.start(Color.BLACK)
    now[0] = 600.0  # the first player (Black in game 1) uses 10 minutes
    clock.move_made(Color.BLACK)
    now[0] = 660.0  # the second player uses 1 minute
    clock.new_game(swap_sides=True)
    assert clock.remaining(Color.WHITE) == 2700.0 - 600.0  # the first player, now White
    assert clock.remaining(Color.BLACK) == 2700.0 - 60.0
