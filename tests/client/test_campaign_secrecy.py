"""Secret orders in the hotseat campaign (issue 29, item 1), headless with real pygame events.

Every screen a player can reach during the orders phase (each manoeuvre, vanguard and stratagem
choice, the planner on and off, the hovered battle, the history, the GM's seat) is drawn twice:
once with the Zones having sealed Withdraw and once Block. Every frame shown to the other three
players is the same to the pixel, so nothing on them comes from another side's sealed orders.
"""

from __future__ import annotations

import hashlib
from typing import Any

import pygame

from tests.client.clientfix import click_at, move_mouse
from tests.client.test_campaign_client import _app, key, open_gm, play_to_orders, through_handoff


def _frame(app: Any) -> str:
    app.render()
    return hashlib.sha256(pygame.image.tobytes(app.screen, "RGB")).hexdigest()


def _every_screen(app: Any, scene: Any) -> list[tuple[str, str, str]]:
    """(viewer, what, frame digest) for every screen of this player's orders."""
    out: list[tuple[str, str, str]] = []
    who = scene.viewer

    def snap(what: str) -> None:
        out.append((who, what, _frame(app)))

    snap("orders panel")
    for i, k in enumerate((pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4, pygame.K_5, pygame.K_6)):
        key(app, k)
        snap(f"manoeuvre {i + 1}")
        key(app, pygame.K_v)
        snap(f"manoeuvre {i + 1}, next vanguard")
        key(app, pygame.K_s)
        snap(f"manoeuvre {i + 1}, a stratagem")
    key(app, pygame.K_e)
    snap("planner hidden")
    key(app, pygame.K_e)
    b = scene.orders_panel.battle_id
    move_mouse(app, tuple(int(v) for v in scene.hex_centre(scene.state.battles[b].hex)))
    snap("hovering the battle")
    for b2 in scene.state.battles.values():  # a click on each battle's stack (the side panel)
        click_at(app, tuple(int(v) for v in scene.hex_centre(b2.hex)))
        snap(f"clicked {b2.id}")
    key(app, pygame.K_r)
    assert app.scenes.top.name == "campaign_results"
    snap("history")
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_g)  # the GM's seat, not the GM view
    assert app.scenes.top.name == "gm_lock"
    snap("GM's seat")
    key(app, pygame.K_ESCAPE)
    assert app.scenes.top is scene and not scene.gm
    key(app, pygame.K_2)
    return out


def _week(zones_key: int) -> list[tuple[str, str, str]]:
    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    assert scene.viewer == "zones"
    key(app, zones_key)
    key(app, pygame.K_RETURN)
    frames: list[tuple[str, str, str]] = []
    for _ in ("resistance", "zenith", "jibril"):
        through_handoff(app)
        assert scene.viewer != "zones"
        frames += _every_screen(app, scene)
        if scene.viewer == "jibril":
            break  # Jibril's seal is the last: the reveal (public) follows
        key(app, pygame.K_RETURN)
    return frames


def test_every_screen_of_the_other_players_orders_is_the_same_whatever_the_zones_sealed() -> None:
    withdraw = _week(pygame.K_1)
    block = _week(pygame.K_3)
    assert [(w, what) for w, what, _ in withdraw] == [(w, what) for w, what, _ in block]
    assert {w for w, _, _ in withdraw} == {"resistance", "zenith", "jibril"}
    differ = [(w, what) for (w, what, a), (_, _, b) in zip(withdraw, block, strict=True) if a != b]
    assert differ == []
    assert len(withdraw) > 60


def test_g_on_a_players_orders_screen_shows_the_gms_seat_and_never_the_sealed_orders() -> None:
    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    key(app, pygame.K_1)
    key(app, pygame.K_RETURN)  # the Zones seal Withdraw
    through_handoff(app)
    assert scene.viewer == "resistance"
    key(app, pygame.K_g)
    lock = app.scenes.top
    assert lock.name == "gm_lock" and lock.mode == "closed"  # no passphrase was set before orders were sealed
    app.render()
    assert not any("Withdraw" in s for s in lock.drawn_strings)
    assert not scene.gm
    assert not lock.submit("anything")
    key(app, pygame.K_ESCAPE)
    assert app.scenes.top is scene and not scene.gm


def test_the_gm_view_opens_only_with_its_passphrase_and_leaving_it_hands_off() -> None:
    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    open_gm(app, "owl and oak")  # set while nothing is sealed
    assert scene.gm
    key(app, pygame.K_g)  # leaving the GM view: the player to move takes the screen behind the hand-off
    assert app.scenes.top.name == "handoff" and not scene.gm
    through_handoff(app)
    key(app, pygame.K_1)
    key(app, pygame.K_RETURN)  # the Zones seal
    through_handoff(app)
    key(app, pygame.K_g)
    lock = app.scenes.top
    assert lock.mode == "unlock"
    assert not lock.submit("wrong guess") and not scene.gm
    assert "not the GM's passphrase" in lock.message
    assert lock.submit("owl and oak") and scene.gm
    assert scene.seen.battles["B1"].orders["zones"].manoeuvre == "withdraw"  # the GM sees sealed orders


def test_the_g_that_opens_the_gms_seat_is_not_typed_into_the_passphrase() -> None:
    app, scene = _app()
    through_handoff(app)
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_g, mod=0, unicode="g", scancode=0),
              pygame.event.Event(pygame.TEXTINPUT, text="g")])
    app.step([])
    app.step([])
    lock = app.scenes.top
    assert lock.name == "gm_lock" and lock.entry.get_text() == ""
    app.step([pygame.event.Event(pygame.TEXTINPUT, text="k")])
    assert lock.entry.get_text() == "k"  # focused: the GM types straight away


def test_the_shells_gm_key_f2_opens_the_gms_seat_too_never_the_gm_view() -> None:
    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    key(app, pygame.K_1)
    key(app, pygame.K_RETURN)  # the Zones seal
    through_handoff(app)
    key(app, pygame.K_F2)
    assert app.scenes.top.name == "gm_lock" and not scene.gm
