"""The campaign client, headless with real pygame events: a whole week with two battles, and
no string drawn for one side depends on another side's sealed orders before the reveal."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from game.shell.app import App, Settings  # noqa: E402
from game.shell.launch import (
    open_game,  # noqa: E402
    scene_for,  # noqa: E402
)
from game.table import TABLE  # noqa: E402


def _app() -> tuple[App, object]:
    session = open_game(TABLE, "maps/campaign/teaching.yaml")
    app = App(TABLE, size=(1280, 800), headless=True, settings=Settings(animation="instant"))
    scene = scene_for(app, session)  # the table's campaign client: with the bridge's Battle panel
    app.push(scene)
    return app, scene


def key(app: App, k: int) -> None:
    app.step([pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0)])
    app.step([])
    app.render()


def click(app: App, pos: tuple[float, float]) -> None:
    p = (int(pos[0]), int(pos[1]))
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=p, button=1),
              pygame.event.Event(pygame.MOUSEBUTTONUP, pos=p, button=1)])
    app.render()


def through_handoff(app: App) -> None:
    if app.scenes.top is not None and app.scenes.top.name == "handoff":
        key(app, pygame.K_SPACE)


def open_gm(app: App, passphrase: str = "gm-secret") -> None:
    """G, then the GM's passphrase on the GM's seat (set it the first time)."""
    key(app, pygame.K_g)
    lock = app.scenes.top
    assert lock is not None and lock.name == "gm_lock"
    assert lock.submit(passphrase), lock.message  # type: ignore[attr-defined]
    app.render()


def past_reveal(app: App) -> None:
    """Leave the reveal (the week's results) if it is up."""
    for _ in range(20):  # Enter: page by page, the last one back to the map
        if app.scenes.top is None or app.scenes.top.name != "campaign_results":
            break
        key(app, pygame.K_RETURN)


def enter(app: App) -> None:
    through_handoff(app)
    key(app, pygame.K_RETURN)


def move(app: App, scene, army_hex: tuple[int, int], to: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    through_handoff(app)
    click(app, scene.hex_centre(army_hex))
    click(app, scene.hex_centre(to))


def play_to_orders(app: App, scene) -> None:  # type: ignore[no-untyped-def]
    enter(app)  # the Zones end their move
    enter(app)  # the Resistance too
    move(app, scene, (29, 9), (28, 11))
    assert scene.state.armies["host"].hex == (28, 11)
    enter(app)
    move(app, scene, (24, 27), (21, 27))
    assert scene.state.armies["corps"].hex == (21, 27)
    enter(app)
    assert scene.state.phase == "declare"
    through_handoff(app)
    app.render()
    shown = " ".join(x.strip() for x in scene.drawn_strings)  # (wrapped lines joined)
    assert "Declare combat at" in shown and "units). Fight or decline?" in shown  # who stands there
    for _ in range(2):
        enter(app)  # the first side asked in each hex fights: the other is not asked
    # no General can reach another army of its side: every pick-up turn is skipped (no hand-off)
    assert len(scene.state.battles) == 2 and scene.state.phase == "narrative"
    assert sum("skipped, no General" in line for line in scene.log) == 4
    for _ in range(4):
        enter(app)  # post (naming the Generals there)
        enter(app)  # done posting
    assert scene.state.phase == "orders"


def test_a_headless_week_with_two_battles_is_played_through_the_client() -> None:
    app, scene = _app()
    play_to_orders(app, scene)
    for manoeuvre_key in (pygame.K_1, pygame.K_5, pygame.K_2, pygame.K_3):  # zones, resistance, zenith, jibril
        through_handoff(app)
        key(app, manoeuvre_key)
        key(app, pygame.K_RETURN)
    st = scene.state
    assert st.week == 2 and all(b.log for b in st.battles.values())
    shown = "\n".join(scene.log)
    assert "successes" in shown and "table" in shown and "takes" in shown
    assert app.scenes.top.name == "campaign_results"  # the reveal first
    app.render()
    assert any("Orders" == s for s in app.scenes.top.drawn_strings)
    past_reveal(app)
    assert app.scenes.top.name == "handoff"  # the next player's turn starts behind the hand-off screen
    through_handoff(app)
    assert any("Week 2" in s for s in scene.drawn_strings)


def _strings_for_jibril(zones_key: int) -> list[str]:
    app, scene = _app()
    play_to_orders(app, scene)
    for k in (zones_key, pygame.K_5, pygame.K_2):
        through_handoff(app)
        key(app, k)
        key(app, pygame.K_RETURN)
    through_handoff(app)
    assert scene.viewer == "jibril"
    key(app, pygame.K_e)
    key(app, pygame.K_e)  # planner shown again
    click(app, scene.hex_centre((21, 27)))  # select the battle's stack
    app.render()
    return list(scene.drawn_strings)


def test_no_string_drawn_for_a_side_depends_on_another_sides_sealed_orders() -> None:
    withdraw = _strings_for_jibril(pygame.K_1)
    block = _strings_for_jibril(pygame.K_3)
    assert withdraw == block
    assert any("Planner" in s for s in withdraw)


def test_a_campaign_opened_in_hotseat_starts_behind_the_hand_off() -> None:
    app, scene = _app()
    assert app.scenes.top is not None and app.scenes.top.name == "handoff"
    app.render()
    assert not any("Orders for battle" in s for s in scene.drawn_strings)  # nothing drawn under it yet
    through_handoff(app)
    assert app.scenes.top is scene


def test_every_line_of_the_side_panel_fits_its_width() -> None:
    from game.systems.campaign.client.scene import PANEL_W

    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    width = app.screen.get_width()
    for _view in ("player", "gm"):  # the GM's view has the Battle panel's forecast, the longest lines
        app.render()
        panel = [(t, r) for t, r in scene.drawn_rects if r.x >= width - PANEL_W]
        assert panel
        for text, rect in panel:
            assert rect.right <= width - 4, text
        if _view == "player":
            open_gm(app)
        else:
            key(app, pygame.K_g)  # leaving the GM view hands off
            through_handoff(app)


def test_the_movement_panel_says_what_to_do_until_an_army_is_selected() -> None:
    app, scene = _app()
    through_handoff(app)
    app.render()
    assert scene.state.phase == "movement"
    assert any(s.startswith("Click one of your armies") for s in scene.drawn_strings)
    click(app, scene.hex_centre((29, 9)))  # the Zones' host
    assert scene.selected is not None
    assert not any(s.startswith("Click one of your armies") for s in scene.drawn_strings)
    pygame.quit()


def test_pick_up_turns_with_no_choice_are_skipped_without_a_hand_off_and_the_log_says_why() -> None:
    app, scene = _app()
    handoffs: list[str] = []
    push = app.push

    def counting(s):  # type: ignore[no-untyped-def]
        if s.name == "handoff":
            handoffs.append(scene.state.phase)
        push(s)

    app.push = counting  # type: ignore[method-assign]
    play_to_orders(app, scene)
    assert "pickup" not in handoffs  # no screen was handed over for a turn with nothing to choose
    assert len([line for line in scene.log if "skipped, no General of theirs is in reach" in line]) == 4


def play_to_posts(app: App, scene) -> None:  # type: ignore[no-untyped-def]
    """The first week, to the Zones' posts (each side declares with Enter)."""
    enter(app)
    enter(app)
    move(app, scene, (29, 9), (28, 11))
    enter(app)
    move(app, scene, (24, 27), (21, 27))
    enter(app)
    through_handoff(app)
    for _ in range(2):
        enter(app)
    through_handoff(app)
    assert scene.state.phase == "narrative" and scene.viewer == "zones"


def test_esc_while_typing_a_post_lets_go_of_the_text_box_and_a_second_esc_asks_to_quit(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path))
    app, scene = _app()
    play_to_posts(app, scene)
    assert scene.text_entry is not None  # type: ignore[attr-defined]
    click(app, scene.text_entry.rect.center)  # type: ignore[attr-defined]
    assert scene.typing()  # type: ignore[attr-defined]
    key(app, pygame.K_ESCAPE)
    assert app.scenes.top is scene and not scene.typing()  # type: ignore[attr-defined]  # no quit question
    key(app, pygame.K_ESCAPE)
    assert app.scenes.top is not None and app.scenes.top.name == "quit_dialog"
