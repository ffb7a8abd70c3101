"""Computer seats in the battle window (issue 32, the client part): a computer side plays by
itself through the session (its player told only its side's view, in a thread), its why line
goes into the dice log under its command (a sealed initiative choice's only once revealed), the
hand-off screen never comes up for it nor for one person alone against the computer, a hint says
what the computer would do for the person's side,
saves record who played each seat and a loaded game keeps them; two computer sides play a whole
game unattended."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from game import paths
from game.shell.app import App, Settings
from game.shell.contracts import live_game
from game.shell.savegame import load_session, save_session
from game.shell.scenes.seats import seats_dialog, short
from game.shell.seats import SeatRule, Seats, Thinker
from game.shell.toolkit.richtext import plain
from game.table import TABLE

DEFAULT = paths.default_scenario()


@pytest.fixture(autouse=True)
def _saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))


def _app(levels: dict[str, str]) -> App:
    app = App.for_scenario(TABLE, DEFAULT, headless=True, settings=Settings(animation="instant"))
    scene = live_game(app)
    assert scene is not None
    scene.session.seats = Seats(dict(levels))
    scene.thinker.seconds = 0.3  # type: ignore[attr-defined]
    return app


def _close_dialogs(app: App) -> None:
    """Press Enter on whatever dialog is up (briefing, end of battle)."""
    import pygame

    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)])


def test_a_game_against_one_computer_seat_plays_to_its_end_without_any_handoff_and_is_saved_with_its_seats(
        tmp_path: Path) -> None:
    app = _app({"zenith": "easy"})
    scene = live_game(app)
    assert scene is not None
    session = scene.session
    system = session.system
    rng = random.Random(5)
    tops: list[str] = []
    computer_moves = human_moves = 0
    deadline = time.monotonic() + 120
    while session.state.phase != "ended":
        assert time.monotonic() < deadline, "the game did not end in time"
        top = app.scenes.top
        tops.append(top.name)
        assert top.name != "handoff"  # one person at the screen: nobody to hide the map from
        side = scene.decision_side()
        if top is not scene and top.name in ("briefing", "handoff") or side is None:
            _close_dialogs(app)
            continue
        if top is not scene:  # the person's decision dialog (initiative, turn place, defence): answered below
            app.pop()
        if side == "zone":  # the person at the screen, driven by the test through the window's submit
            cmds = list(system.legal_commands(session.view("zone")))
            kinds = sorted({c.kind for c in cmds})
            kind = rng.choice(kinds)
            assert scene.submit(rng.choice([c for c in cmds if c.kind == kind]))
            human_moves += 1
        else:
            before = len(session.history)
            app.step([])
            time.sleep(0.005)
            if len(session.history) > before:
                computer_moves += 1
                assert scene.toast_text is not None and "Why:" in scene.toast_text
    assert computer_moves > 5 and human_moves > 5
    # the save says who played each seat, and a loaded game keeps them
    path = save_session(session, tmp_path / "g.yaml")
    assert "seats:" in path.read_text(encoding="utf-8")
    back = load_session(TABLE, path)
    assert back is not None and back.seats.levels == {"zenith": "easy"}
    from game.replay import verify_save

    report = verify_save(TABLE, path)  # raises on any difference
    assert report.commands == len(session.history)


def test_two_computer_seats_play_a_whole_game_unattended_and_no_handoff_screen_comes_up() -> None:
    app = _app({"zone": "easy", "zenith": "easy"})
    scene = live_game(app)
    assert scene is not None
    deadline = time.monotonic() + 120
    while scene.session.state.phase != "ended":
        assert time.monotonic() < deadline, "the computer game did not end in time"
        assert app.scenes.top.name not in ("handoff", "briefing", "initiative", "turn_place", "defensive")
        app.step([])
        time.sleep(0.002)
    assert len(scene.session.history) > 10


def test_a_save_without_computer_seats_has_no_seats_entry_and_loads_as_all_human(tmp_path: Path) -> None:
    app = _app({})
    scene = live_game(app)
    assert scene is not None
    path = save_session(scene.session, tmp_path / "h.yaml")
    assert "seats:" not in path.read_text(encoding="utf-8")
    back = load_session(TABLE, path)
    assert back is not None and back.seats.levels == {}


def test_the_window_asks_a_computer_seat_with_its_side_view_only() -> None:
    """The thinker hands the player the side's view (system.view), never the state: the dice
    generator and forced rolls are not in what it receives."""
    app = _app({})
    scene = live_game(app)
    assert scene is not None
    session = scene.session
    seen: list[object] = []

    class Spy:
        level = "spy"

        def decide(self, system, view, side, budget):  # type: ignore[no-untyped-def]
            seen.append(view)
            from game.core.ai import Decision
            return Decision(list(system.legal_commands(view))[0], "first")

    thinker = Thinker({"spy": lambda rng: Spy()}, 1)
    state = session.state.model_copy(update={"forced_rolls": (1, 2, 3)})
    side = session.system.to_move(state)[0]
    while (timed := thinker.poll(session.system, state, side, "spy")) is None:
        time.sleep(0.001)
    assert seen and seen[0] is not state
    assert seen[0] == session.system.view(state, side)
    assert getattr(seen[0], "forced_rolls", ()) == ()
    assert timed is not None and timed.decision.why == "first"


def test_the_hint_key_says_what_the_computer_would_do_for_the_person_and_why() -> None:
    app = _app({})
    scene = live_game(app)
    assert scene is not None
    while app.scenes.top is not scene:
        _close_dialogs(app)
        if app.scenes.top.name == "handoff":
            _close_dialogs(app)
    played = len(scene.session.history)
    scene.hint()
    deadline = time.monotonic() + 30
    while not (scene.toast_text or "").startswith("Hint"):
        assert time.monotonic() < deadline
        app.step([])
        time.sleep(0.005)
    assert "Why:" in (scene.toast_text or "")
    assert len(scene.session.history) == played  # a hint plays nothing


def test_a_computer_sealed_initiative_choice_shows_neither_what_nor_why_until_the_choices_are_revealed() -> None:
    """Both sides play by the computer; each initiative choice made while another side still has
    to choose keeps its why line back (Seats.why_of is None) until the rolls reveal them all."""
    app = _app({"zone": "easy", "zenith": "easy"})
    scene = live_game(app)
    assert scene is not None
    session = scene.session
    seats = session.seats
    held_seen = released_seen = False
    deadline = time.monotonic() + 60
    while not (held_seen and released_seen):
        assert time.monotonic() < deadline, "no sealed initiative choice by the computer was seen"
        before = len(session.history)
        app.step([])
        time.sleep(0.002)
        if len(session.history) == before:
            continue
        step = session.history[-1]
        p = step.before.pending
        if p is not None and p.kind == "initiative_choice":
            after = session.state.pending
            if after is not None and after.kind == "initiative_choice":
                held_seen = True
                assert seats.why_of(step) is None  # held back: it would tell the choice
                assert "sealed initiative choice" in (scene.toast_text or "")
                assert "Why: said once the choices are revealed" in (scene.toast_text or "")
        elif held_seen and all(seats.why_of(s) is not None for s in session.history
                               if s.before.pending is not None and s.before.pending.kind == "initiative_choice"):
            released_seen = True


def test_in_the_battle_window_seats_change_freely_before_play_and_by_the_gms_word_after() -> None:
    app = _app({})
    scene = live_game(app)
    assert scene is not None
    scene.players_dialog()
    dialog = app.scenes.top
    dialog.choose_label("Zenith Town: Human")  # type: ignore[attr-defined]
    assert scene.session.seats.level("zenith") == "easy"
    app.scenes.top.choose_label("Done")  # type: ignore[attr-defined]
    scene.session.seats.set("zenith", None)
    cmds = list(scene.session.system.legal_commands(scene.session.view(scene.session.system.to_move(scene.session.state)[0])))
    assert scene.submit(cmds[0])  # play has begun
    scene.players_dialog()
    locked = app.scenes.top
    assert "Play has begun: only the GM changes who plays a side" in locked.body_text  # type: ignore[attr-defined]
    locked.choose_label("Zenith Town: Human")  # type: ignore[attr-defined]
    assert "Refused." in app.scenes.top.body_text and scene.session.seats.level("zenith") is None  # type: ignore[attr-defined]
    app.scenes.top.choose_label("I am the GM (G)")  # type: ignore[attr-defined]
    app.scenes.top.choose_label("Zenith Town: Human")  # type: ignore[attr-defined]
    assert scene.session.seats.level("zenith") == "easy"


def test_seats_keep_why_lines_by_step_and_release_the_held_ones_in_order() -> None:
    seats = Seats({"a": "easy"})
    s1, s2, s3 = object(), object(), object()
    seats.note_why(s1, "one")
    seats.note_why(s2, "two", sealed=True)
    seats.note_why(s3, "three", sealed=True)
    assert seats.why_of(s1) == "one" and seats.why_of(s2) is None and seats.why_of(object()) is None
    assert seats.unseal() == ["two", "three"]
    assert seats.why_of(s2) == "two" and seats.unseal() == []
    assert Seats({"a": "easy"}) == seats  # the why lines are not part of who plays
    assert SeatRule().why_not() is None and SeatRule(started=True, gm=True).why_not() is None
    assert "I am the GM" in (SeatRule(started=True).why_not() or "")
    assert "passphrase" in (SeatRule(started=True, unlock=lambda then: None).why_not() or "")


def test_the_players_dialog_shows_a_sides_name_as_text_even_when_it_looks_like_markup() -> None:
    app = _app({})
    dialog = seats_dialog(app, Seats({"x": "easy"}), [("x", "<b>Fish & Chips</b> &amp;")], ["easy", "hard"])
    assert "<b>Fish & Chips</b> &amp;: Computer (easy)" in plain(dialog.body_html)


def _why_then_what(log: str, why: str) -> tuple[str, str]:
    """The log's line just above `why` (the command it explains) and the line under it."""
    rows = log.splitlines()
    i = rows.index(why)
    return rows[i - 1], (rows[i + 1] if i + 1 < len(rows) else "")


def test_the_dice_log_shows_a_computer_commands_why_line_under_the_command_it_explains() -> None:
    app = _app({"zone": "easy", "zenith": "easy"})
    scene = live_game(app)
    assert scene is not None
    session = scene.session
    deadline = time.monotonic() + 60
    shown = 0
    while shown < 3:
        assert time.monotonic() < deadline, "no computer command with rolls or moves was logged"
        before = len(session.history)
        app.step([])
        time.sleep(0.002)
        if len(session.history) == before:
            continue
        step = session.history[-1]
        why = session.seats.why_of(step)
        if why is None:
            continue  # a sealed initiative choice: tested below
        log = scene.panels.shown("log")
        assert why in log.splitlines()  # shown at once, without waiting for another command
        head, _ = _why_then_what(log, why)
        assert head == session.system.describe_command(step.before, step.command)
        assert why.startswith("Why (") and ", computer easy): " in why
        shown += 1


def test_a_sealed_initiative_choices_why_is_not_in_the_dice_log_before_the_reveal_and_is_there_after() -> None:
    """Both sides play by the computer: an initiative choice made while the other side still has
    to choose shows nothing in the log (not its heading, not its why); once the choices are
    revealed its heading and its why line are there."""
    app = _app({"zone": "easy", "zenith": "easy"})
    scene = live_game(app)
    assert scene is not None
    session = scene.session
    sealed: list[object] = []
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "no sealed initiative choice by the computer was revealed"
        before = len(session.history)
        app.step([])
        time.sleep(0.002)
        if sealed and not session.seats.held:
            break  # revealed
        if len(session.history) == before:
            continue
        step = session.history[-1]
        p, after = step.before.pending, session.state.pending
        if p is not None and p.kind == "initiative_choice" and after is not None and after.kind == "initiative_choice":
            sealed.append(step)
            held = session.seats.whys[id(step)][1]
            log = scene.panels.shown("log")
            assert held not in log and "Why (" not in log.split("\n\n")[0]
            assert session.system.describe_command(step.before, step.command) not in log
    step = sealed[-1]
    why = session.seats.why_of(step)
    assert why is not None
    log = scene.panels.shown("log")
    head, _ = _why_then_what(log, why)
    assert head == session.system.describe_command(step.before, step.command)


def _first_screens(levels: dict[str, str], steps: int) -> tuple[list[str], list[str]]:
    """The screens on top and the toasts shown over the first `steps` commands of the default
    scenario, the person's decisions made through the window by the test (blackout on)."""
    app = _app(levels)
    scene = live_game(app)
    assert scene is not None
    assert app.settings.blackout
    session = scene.session
    rng = random.Random(3)
    tops: list[str] = []
    toasts: list[str] = []
    deadline = time.monotonic() + 60
    while len(session.history) < steps:
        assert time.monotonic() < deadline
        app.step([])
        time.sleep(0.002)
        top = app.scenes.top
        tops.append(top.name)
        toasts.append(scene.toast_text or "")
        side = scene.decision_side()
        if top.name in ("briefing", "handoff"):
            _close_dialogs(app)
            continue
        if side is None or session.seats.is_computer(side):
            continue
        if top is not scene:  # the person's decision dialog: answered below through submit
            app.pop()
        cmds = list(session.system.legal_commands(session.view(side)))
        assert scene.submit(rng.choice(cmds))
    return tops, toasts


def test_one_person_against_the_computer_never_gets_the_handoff_screen_two_people_do() -> None:
    tops, toasts = _first_screens({"zenith": "easy"}, 12)
    assert "handoff" not in tops  # nobody to hide the map from, not even at the start
    assert not any("pass the screen" in t for t in toasts)
    tops, _ = _first_screens({}, 4)
    assert "handoff" in tops  # two people at one screen still pass it with the map hidden


def test_the_person_cannot_end_the_computers_phase_its_end_button_is_greyed() -> None:
    app = _app({"zone": "easy", "zenith": "easy"})
    scene = live_game(app)
    assert scene is not None
    session = scene.session
    deadline = time.monotonic() + 60
    while session.state.phase not in ("movement", "attack") or session.state.pending is not None:
        assert time.monotonic() < deadline
        app.step([])
        time.sleep(0.002)
    scene.thinker.seconds = 60.0  # type: ignore[attr-defined]  # (the computer still thinking)
    scene._toast = None  # (the computer's last toast gone: the hint line is the top bar's own)
    scene.refresh_panels(force=True)
    end = scene.panels.top_buttons["end"]
    assert not end.is_enabled and end.text == "Computer playing"
    side = session.state.active_side
    assert scene.panels.shown("hint") == f"{session.state.side_name(side)} is playing: Computer (easy)."
    played = len(session.history)
    scene.end_phase()
    assert len(session.history) == played and "played by the computer" in (scene.toast_text or "")


def test_restarting_the_battle_keeps_who_plays_each_side_but_none_of_the_old_games_why_lines() -> None:
    app = _app({"zenith": "easy"})
    scene = live_game(app)
    assert scene is not None
    session = scene.session
    side = session.system.to_move(session.state)[0]
    cmds = list(session.system.legal_commands(session.view(side)))
    assert scene.submit(cmds[0])
    session.seats.note_why(session.history[-1], "an old reason")
    scene.restart()
    fresh = live_game(app)
    assert fresh is not None and fresh is not scene
    assert fresh.session.seats.levels == {"zenith": "easy"}
    assert fresh.session.seats.whys == {} and fresh.session.history == []
    assert session.seats.why_of(session.history[-1]) == "an old reason"  # the old game's own, untouched


def test_restarting_a_game_dealt_fresh_dice_deals_fresh_ones_again_and_a_fixed_seed_stays() -> None:
    for fresh_dice in (True, False):
        app = _app({"zenith": "easy"})
        scene = live_game(app)
        assert scene is not None
        scene.session.fresh_dice = fresh_dice
        seed = scene.session.seed
        seeds = set()
        for _ in range(3):
            live_game(app).restart()  # type: ignore[union-attr]
            again = live_game(app)
            assert again is not None and again.session.fresh_dice is fresh_dice
            seeds.add(again.session.seed)
        assert (seed not in seeds and len(seeds) == 3) if fresh_dice else seeds == {seed}


def test_a_hint_selects_the_unit_it_would_move_so_the_map_shows_it() -> None:
    app = _app({})
    scene = live_game(app)
    assert scene is not None
    session = scene.session
    while session.state.phase != "movement" or session.state.pending is not None:
        assert session.apply(session.system.legal_commands(session.state)[0])[0]  # initiative, turn place
    scene.after_change()
    deadline = time.monotonic() + 30
    while app.scenes.top is not scene:  # briefing, hand-off
        assert time.monotonic() < deadline
        _close_dialogs(app)
    scene.selected = None
    scene.hint()
    while not (scene.toast_text or "").startswith("Hint"):
        assert time.monotonic() < deadline
        app.step([])
        time.sleep(0.005)
    text = scene.toast_text or ""
    assert scene.selected is not None, text  # the opening move of the default map moves a unit
    assert text.startswith("Hint (hard): ") and scene.state.unit_name(scene.selected) in text.split(". Why:")[0]


def test_a_side_button_cuts_a_long_name_at_a_word_or_with_an_ellipsis_never_mid_word_in_silence() -> None:
    assert short("Resistance Fronts", 12) == "Resistance"
    assert short("Resistance Fronts", 6) == "Resis\u2026"  # (the first word itself too long: marked cut)
    assert short("The Zones") == "Zones"


def test_a_side_button_cut_at_a_word_leaves_no_dangling_possessive_or_little_word() -> None:
    assert short("Hida Jo's army") == "Hida Jo"  # not "Hida Jo's"
    assert short("Kuni Mai\u2019s host") == "Kuni Mai"
    assert short("Warden of the Marches") == "Warden"  # not "Warden of"
    assert short("Akira's army") == "Akira's army"  # whole when it fits
