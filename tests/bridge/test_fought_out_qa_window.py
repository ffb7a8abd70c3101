"""QA of a campaign battle fought out at another scale and carried back (docs/scales.md), as seen
under Xvfb at 960x600 and 1280x800. Each test names what was wrong on screen and checks it is not:

- the result's working said "30% - 29% = 0 points" and "both sides lost the same share" for 29.6%
  against 29.1% (the shares rounded to whole percents); and a floating-point floor could lose a
  whole point across a band's threshold (0.47 - 0.27 lost: 19 points, a minor victory, not 20);
- a later save of a mass battle was placed by "round 1, Phase 5" (a mass battle has waves);
- the later-save question's first button, "Go on from the later save", was cut at both ends;
- a side the computer plays was asked to agree to a proposal through a hand-off to nobody;
- with every battle's orders in and one battle fought out, a campaign loaded again had no way to
  resume it when the GM view was closed until the orders are revealed (no passphrase set before
  orders were sealed): the players' panel said "Nobody is to play" and had no button;
- the way back's "not over yet" named the battle save twice, as a whole path;
- `scales back --apply` into another folder wrote a campaign save whose earlier results' links
  no longer led to their battle saves (`replay --verify` then failed).
"""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from game import paths  # noqa: E402
from game.bridge import back  # noqa: E402
from game.bridge.cli.scales import moved_links  # noqa: E402
from game.bridge.client.fight import BEGIN_AGAIN, LATER_SAVE, result_sentences, save_clock  # noqa: E402
from game.shell import savegame  # noqa: E402
from game.shell.toolkit.richtext import plain  # noqa: E402
from game.table import TABLE  # noqa: E402
from tests.bridge.players import _pick  # noqa: E402
from tests.client.clientfix import key, press_button, settle, top_name  # noqa: E402
from tests.client.test_campaign_client import _app, play_to_orders, through_handoff  # noqa: E402


def _result(campaign: Any, rules: Any, zones: tuple[int, int], jibril: tuple[int, int]) -> back.CampaignResult:
    """Campaign battle B1 won by Jibril; every unit of a side losing `lost` of `start`."""
    b = campaign.battles["B1"]
    losses = {u: back.Loss(start, lost) for p in b.sides for u in campaign.force_units(b, p)
              for lost, start in [zones if p == "zones" else jibril]}
    return back.campaign_result(campaign, "B1", rules, losses, "jibril", "tactical")


def test_shares_less_than_a_point_apart_read_as_about_the_same_and_the_working_shows_tenths(
        campaign: Any, scales_rules: Any) -> None:
    r = _result(campaign, scales_rules, (296, 1000), (291, 1000))  # the mass battle seen: 29.6% and 29.1%
    assert r.decisiveness == 0 and r.band_name == "minor victory"
    assert "both sides lost about the same share of their forces (less than one percentage point apart)" \
        in result_sentences(campaign, r)[0]
    step = next(s for s in r.steps if s.startswith("2. "))
    assert "29.60% - 29.10% = 0.50, rounded down: 0 points" in step
    assert "30% - 29%" not in step


def test_a_winner_less_than_a_point_worse_off_is_not_said_to_have_lost_a_point_more(
        campaign: Any, scales_rules: Any) -> None:
    r = _result(campaign, scales_rules, (291, 1000), (296, 1000))
    assert r.decisiveness == -1 and r.band_name == "minor victory"  # (rounded down: the band's count)
    first = result_sentences(campaign, r)[0]
    assert "about the same share" in first and "1 percentage point more" not in first


def test_equal_shares_still_read_as_the_same_share(campaign: Any, scales_rules: Any) -> None:
    r = _result(campaign, scales_rules, (3, 10), (3, 10))
    assert "both sides lost the same share of their forces)" in result_sentences(campaign, r)[0]
    assert any(s.endswith("= 0 points -> minor victory (thresholds " + str(dict(scales_rules.back.bands)) + ")")
               for s in r.steps)


def test_twenty_points_exactly_is_a_major_victory_whatever_floating_point_makes_of_the_shares(
        campaign: Any, scales_rules: Any) -> None:
    assert (0.47 - 0.27) * 100 < 20  # the trap: 19.999999999999996, a floor of 19
    r = _result(campaign, scales_rules, (47, 100), (27, 100))
    assert r.decisiveness == 20 and r.band_name == "major victory"
    assert "47.00% - 27.00% = 20 points -> major victory" in next(s for s in r.steps if s.startswith("2. "))


def test_a_battle_save_is_placed_in_its_own_battle_s_words() -> None:
    assert save_clock(SimpleNamespace(system="mass-battle", round=1, phase="Phase 5")) == "wave 1, phase 5"
    assert save_clock(SimpleNamespace(system="mass-battle", round=2, phase="sealed appointments")) == \
        "wave 2, sealed appointments"
    assert save_clock(SimpleNamespace(system="ail-tactical", round=3, phase="attack")) == "round 3, attack phase"
    # (seen: "round 1, initiative (waiting: initiative choice)" inside the question's own brackets)
    assert save_clock(SimpleNamespace(system="ail-tactical", round=1,
                                      phase="initiative (waiting: initiative choice)")) == "round 1, initiative phase"


def _cut(labels: list[str]) -> list[str]:
    """The labels of a three-button dialog (as the later-save question) at 960x600 that do not fit
    their buttons (the first one primary, in bold)."""
    from game.shell.app import App, Settings
    from game.shell.scenes.dialog import Choice, DialogScene

    app = App(TABLE, size=(960, 600), headless=True, settings=Settings(animation="instant"))
    dialog = DialogScene(app, "Battle B1: a later save", "body",
                         [Choice(text, None, primary=i == 0) for i, text in enumerate(labels)], size=(760, 340))
    return [b.text for b in dialog.buttons if b.font.size(b.text)[0] > b.rect.width - 8]


def test_the_later_save_question_s_buttons_fit_at_960x600() -> None:
    assert _cut(["Go on from the later save", "Open the battle save", "Back"]) == ["Go on from the later save"]
    assert _cut([LATER_SAVE, "Use the battle save", "Back"]) == []
    assert _cut([LATER_SAVE, BEGIN_AGAIN, "Back"]) == []


@pytest.fixture()
def saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path))
    return tmp_path


def test_a_computer_played_side_agrees_to_a_proposal_without_a_hand_off_to_nobody(saves: Path) -> None:
    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    assert scene.viewer == "zones"
    scene.session.seats.set("jibril", "hard")  # (the campaign's seats: --seat jibril=ai:hard)
    press_button(app, "Propose: tactical")
    settle(app, 2)
    assert top_name(app) != "handoff"  # nobody is asked to play Jibril
    b1 = scene.state.battles["B1"]
    assert b1.fought_as == "tactical"
    last = scene.session.history[-1].command
    assert last.kind == "gm_battle_choice" and last.note == "The Zones proposed it, Jibril (computer, hard) agreed"
    battle = next(s for s in app.scenes if getattr(s, "game_scene", False) and s is not scene)
    assert battle.session.seats.levels == {"jibril": "hard"}  # it plays the battle it agreed to
    assert "played by the computer (hard), which agreed" in scene.message and scene.message_ok


def test_players_resume_a_battle_fought_out_when_the_gm_view_stays_closed_and_the_week_waits_for_it(
        saves: Path) -> None:
    from game.shell.app import App, Settings
    from game.shell.launch import open_game, scene_for

    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    press_button(app, "Propose: tactical")  # the Zones propose, Jibril agrees behind the hand-off
    key(app, pygame.K_SPACE)
    press_button(app, "Agree")
    settle(app, 2)
    battle = next(s for s in app.scenes if getattr(s, "game_scene", False) and s is not scene)
    key(app, pygame.K_RETURN)  # the briefing
    for _ in range(3):
        st = battle.session.state
        ok, _e, why = battle.session.apply(_pick("ail-tactical", battle.session.system.legal_commands(st)))
        assert ok, why
    key(app, pygame.K_b, mod=pygame.KMOD_CTRL)
    assert top_name(app) == "battle_return"
    body = plain(app.scenes.top.body_html)  # type: ignore[union-attr]
    # the save named once, relative to the campaign save's folder, not as a whole path twice
    assert body.count("-B1-tactical-save.yaml") == 1 and "saved in battles/" in body and str(saves) not in body
    assert body.startswith("The tactical battle is not over (round 1, ")
    press_button(app, "Later")
    # B2's orders, sealed by its two sides (their own orders screens)
    for _ in range(4):
        through_handoff(app)
        if scene.state.phase != "orders" or not scene.system.to_move(scene.state):
            break
        press_button(app, "Seal orders (Enter)")
    assert scene.state.phase == "orders" and not scene.system.to_move(scene.state)
    camp = scene.session.save_path
    savegame.save_session(scene.session, camp)  # (Ctrl+S: the sealed orders kept too)
    session = open_game(TABLE, camp)  # another evening
    app2 = App(TABLE, size=(960, 600), headless=True, settings=Settings(animation="instant"))
    scene2 = scene_for(app2, session)
    app2.push(scene2)
    through_handoff(app2)
    key(app2, pygame.K_g)  # the GM view stays closed: no passphrase was set before the orders
    assert top_name(app2) == "gm_lock"
    key(app2, pygame.K_ESCAPE)
    assert top_name(app2) != "gm_lock" and not scene2.gm
    shown = " ".join(s.strip() for s in scene2.drawn_strings)
    assert "the week waits for the result of battle B1, being fought out: Resume it below" in shown
    assert "Battle B1 at 21,27: The Zones vs Jibril · being fought out as a tactical battle" in shown
    press_button(app2, "Resume B1 (tactical)")
    resumed = next(s for s in app2.scenes if getattr(s, "game_scene", False) and s is not scene2)
    assert resumed.session.system.name == "ail-tactical" and len(resumed.session.history) == 3


def test_scales_back_apply_into_another_folder_names_the_links_it_would_lose(tmp_path: Path) -> None:
    (tmp_path / "a" / "battles").mkdir(parents=True)
    (tmp_path / "b").mkdir()
    save = tmp_path / "a" / "battles" / "camp-B2-mass-save.yaml"
    save.write_text("a battle save\n")
    source = SimpleNamespace(save="battles/camp-B2-mass-save.yaml")
    steps = [SimpleNamespace(command=SimpleNamespace(kind="gm_battle_choice", battle="B2",
                                                     save="battles/camp-B2-mass-save.yaml")),
             SimpleNamespace(command=SimpleNamespace(kind="gm_battle_result", battle="B2", source=source)),
             SimpleNamespace(command=SimpleNamespace(kind="gm_battle_choice", battle="B1",
                                                     save="battles/camp-B1-tactical-save.yaml"))]
    camp = tmp_path / "a" / "camp.yaml"
    assert moved_links(steps, camp, tmp_path / "a" / "after.yaml", "B1") == []  # the same folder
    assert moved_links(steps, camp, tmp_path / "b" / "after.yaml", "B1") == ["B2: battles/camp-B2-mass-save.yaml"]
    (tmp_path / "b" / "battles").mkdir()
    (tmp_path / "b" / "battles" / "camp-B2-mass-save.yaml").write_text("a battle save\n")  # copied beside it
    assert moved_links(steps, camp, tmp_path / "b" / "after.yaml", "B1") == []


def test_fighting_a_battle_out_again_names_only_the_files_it_did_write_again(campaign: Any, tmp_path: Path) -> None:
    """Seen: 'camp-B1-tactical.tmx is kept as camp-B1-tactical.tmx.bak' when the map came out the
    same (the same campaign seed, the same ground): it was not written again and had no .bak."""
    import time

    from game.bridge.files import backups_text, generate_battle, replaced_by_generating, rewritten

    generate_battle(campaign, "B1", "tactical", tmp_path, "camp-B1-tactical", seed=7)
    battle_file = tmp_path / "camp-B1-tactical.yaml"
    replaced, since = replaced_by_generating(battle_file, "tactical"), time.time_ns()
    assert [p.name for p in replaced] == ["camp-B1-tactical.yaml", "camp-B1-tactical.tmx"]
    generate_battle(campaign, "B1", "tactical", tmp_path, "camp-B1-tactical", seed=7)  # fresh dice, same ground
    kept = rewritten(replaced, since)
    assert [p.name for p in kept] == ["camp-B1-tactical.yaml"]
    assert not (tmp_path / "camp-B1-tactical.tmx.bak").exists()
    assert backups_text(kept) == "the previous camp-B1-tactical.yaml is kept as camp-B1-tactical.yaml.bak"


def test_the_units_losses_of_a_mass_battle_add_up_to_what_the_battle_says_each_division_lost() -> None:
    """Seen: the battle's summary 'light 1300 -> 1101 (199 wounded)', the result '241 of 1400' one
    head more than the battle's 'out: 241' would allow with 77 + 77 + 46 = 200 from the light class."""
    def force(light: int, none: int) -> SimpleNamespace:
        return SimpleNamespace(brutes=[SimpleNamespace(armour="light", count=light),
                                       SimpleNamespace(armour="none", count=none)], status="fighting")

    heads = {"resistance": {"front.1": 500, "front.2": 500, "front.3": 100, "front.4": 300}}
    armour = {"front.1": "light", "front.2": "light", "front.3": "none", "front.4": "light"}
    initial = SimpleNamespace(forces={"resistance": force(1300, 100)})
    final = SimpleNamespace(forces={"resistance": force(1101, 58)})
    losses = back.mass_losses(heads, armour, initial, final)
    assert sum(losses[u].lost for u in ("front.1", "front.2", "front.4")) == 199
    assert losses["front.3"].lost == 42
    assert sorted(losses[u].lost for u in ("front.1", "front.2")) == [76, 77]  # shared by the largest remainders
    assert losses["front.4"].lost == 46 and all(losses[u].start == heads["resistance"][u] for u in losses)


def test_verify_checks_only_the_last_choice_of_a_battle_chosen_abandoned_and_chosen_again(
        tmp_path: Path, capsys: Any) -> None:
    """Seen: `replay --verify` after a battle was fought out, abandoned and fought out again listed
    'B1 is being fought out' twice (for the abandoned choice too); `scales verify` said '0 linked
    battle saves' of a battle still being fought out whose save it had just replayed ('1 commands')."""
    from game.__main__ import main
    from game.bridge.files import battle_paths, generate_battle
    from game.core.system import Accepted
    from game.replay import save_game
    from game.systems.campaign.io.files import load_campaign
    from game.systems.campaign.rules import SYSTEM
    from game.systems.campaign.rules.commands import parse_command
    from tests.bridge.conftest import TEACHING, campaign_record

    rec = campaign_record()
    camp = tmp_path / "campaign.yaml"
    _file, battle_save = battle_paths(camp, "B1", "tactical")
    rel = battle_save.relative_to(camp.parent).as_posix()
    for cmd in ({"kind": "gm_battle_choice", "battle": "B1", "scale": "tactical", "save": rel},
                {"kind": "gm_battle_abandon", "battle": "B1"},
                {"kind": "gm_battle_choice", "battle": "B1", "scale": "tactical", "save": rel}):
        assert isinstance(rec.apply(parse_command(cmd)), Accepted)
    save_game(camp, SYSTEM, rec.state, rec.steps, scenario_path=TEACHING, seed=load_campaign(TEACHING).seed)
    assert main(["replay", "--verify", str(camp)]) == 0
    out = capsys.readouterr().out
    assert out.count("B1 is being fought out") == 1 and f"command {len(rec.steps)}: B1" in out
    # its save, one command in
    from game.bridge.client.fight import write_battle_save
    from game.shell.launch import open_game
    battle_file = generate_battle(rec.state, "B1", "tactical", battle_save.parent, battle_save.stem.removesuffix("-save"),
                                  seed=1)
    session = open_game(TABLE, battle_file)
    ok, _e, why = session.apply(_pick("ail-tactical", session.system.legal_commands(session.state)))
    assert ok, why
    write_battle_save(session, battle_save)
    assert main(["scales", "verify", str(camp)]) == 0
    out = capsys.readouterr().out
    assert "replays (1 command)" in out and "-- 1 linked battle save, 0 problems" in out


def test_the_week_s_battle_page_says_a_result_carried_back_was_decided_outside_the_tables() -> None:
    """Seen on the reveal: 'Zenith Empire takes 11 casualties (the table's range is 11-11)' for a
    mass battle fought out and carried back: no table gave them."""
    from game.core.system import Accepted
    from game.systems.campaign.rules.commands import parse_command
    from game.systems.campaign.rules.results import week_pages
    from tests.bridge.conftest import campaign_record

    rec = campaign_record()
    for cmd in ({"kind": "gm_battle_choice", "battle": "B1", "scale": "tactical", "save": "battles/b1.yaml"},
                {"kind": "gm_battle_result", "battle": "B1", "winner": "jibril", "band": 1,
                 "casualties": {"rifles.1": 1}, "moves": {}}):
        assert isinstance(rec.apply(parse_command(cmd)), Accepted)
    pages = week_pages((s.before, s.events, s.after) for s in rec.steps)
    b1 = next(p for w in pages for p in w.battles if p.battle == "B1")
    line = next(t for t in b1.casualties if t.startswith("The Zones take "))
    assert line.startswith("The Zones take 1 casualty (decided outside the tables)") and "range" not in line


def test_scales_warns_at_once_of_a_battle_file_at_the_other_scale_than_the_battle_is_fought_out_at(
        tmp_path: Path, capsys: Any) -> None:
    """Seen: `scales mass` wrote a mass battle file for B1 while the campaign fought B1 out as a
    tactical battle, saying nothing; its result would only be refused at the end, after the battle
    was played."""
    from game.__main__ import main
    from game.core.system import Accepted
    from game.replay import save_game
    from game.systems.campaign.io.files import load_campaign
    from game.systems.campaign.rules import SYSTEM
    from game.systems.campaign.rules.commands import parse_command
    from tests.bridge.conftest import TEACHING, campaign_record

    rec = campaign_record()
    assert isinstance(rec.apply(parse_command({"kind": "gm_battle_choice", "battle": "B1", "scale": "tactical",
                                               "save": "battles/b1-save.yaml"})), Accepted)
    camp = tmp_path / "campaign.yaml"
    save_game(camp, SYSTEM, rec.state, rec.steps, scenario_path=TEACHING, seed=load_campaign(TEACHING).seed)
    out_dir = tmp_path / "out"
    assert main(["scales", "mass", str(camp), "--battle", "B1", "--out", str(out_dir)]) == 0
    said = capsys.readouterr().err
    assert "warning: battle B1 is being fought out as a tactical battle (its save battles/b1-save.yaml)" in said
    assert "the way back will refuse this mass battle's result unless the battle is abandoned" in said
    assert main(["scales", "tactical", str(camp), "--battle", "B1", "--out", str(out_dir)]) == 0  # its own scale
    assert "warning" not in capsys.readouterr().err


def test_restarting_a_campaign_battle_says_its_result_so_far_does_not_go_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seen: the end summary's Restart of a battle fought out said only that the battle begun again
    goes back to the Campaign map; that a finished battle's result is then not the one the campaign
    takes was left unsaid (a Restart deals the battle again)."""
    from game.shell.scenes.dialog import DialogScene
    from tests.shell.harness import open_game, play_some, to_map

    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("tactical", tmp_path)
    game.session.return_to = lambda scene: None
    game.session.return_label = "Campaign map"
    play_some(game)
    to_map(game)
    scene: Any = game.scene
    scene.dialogs.ask_restart(scene)
    ask = game.app.scenes.top
    assert isinstance(ask, DialogScene) and ask.name == "restart_question"
    assert "what this one came to does not go back there (a campaign takes the result of the battle that " \
           "goes back)" in ask.body_text
