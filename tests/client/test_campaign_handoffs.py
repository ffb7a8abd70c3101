"""The campaign window's hand-offs as the players meet them (a QA walkthrough's findings),
headless with real pygame events: nothing of one power's unsealed orders shows to another at a
proposal to fight a battle out, no hover state crosses a hand-off, and the hand-off names what
the next player will do."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pygame_gui  # noqa: E402
import pytest  # noqa: E402

from game import paths  # noqa: E402
from game.shell.app import App, Settings  # noqa: E402
from game.shell.launch import open_game, scene_for  # noqa: E402
from game.systems.campaign.client.orders_panel import EQ_MIX_X  # noqa: E402
from game.systems.campaign.rules.models import MANOEUVRE_NAMES, MANOEUVRES  # noqa: E402
from game.table import TABLE  # noqa: E402
from tests.client.clientfix import press_button, top_name  # noqa: E402
from tests.client.test_campaign_client import _app as _campaign_app  # noqa: E402
from tests.client.test_campaign_client import key, play_to_orders, play_to_posts, through_handoff  # noqa: E402


@pytest.fixture()
def saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path))
    return tmp_path


def _app() -> tuple[Any, Any]:
    return _campaign_app()


def _sized(size: tuple[int, int]) -> tuple[Any, Any]:
    app = App(TABLE, size=size, headless=True, settings=Settings(animation="instant"))
    scene: Any = scene_for(app, open_game(TABLE, "maps/campaign/teaching.yaml"))
    app.push(scene)
    return app, scene


def _frame(app: Any) -> str:
    app.render()
    return hashlib.sha256(pygame.image.tobytes(app.screen, "RGB")).hexdigest()


def _to_proposer(app: Any, scene: Any, proposer: str) -> None:
    """Play to the orders; the powers before `proposer` seal theirs (Enter)."""
    play_to_orders(app, scene)
    for _ in range(4):
        through_handoff(app)
        if scene.viewer == proposer:
            return
        key(app, pygame.K_RETURN)
    raise AssertionError(f"{proposer} never came to the screen")


def _question_frame(proposer: str, manoeuvre_key: int, scale: str) -> tuple[str, list[str], Any, Any]:
    """(the frame under the proposal's question, the map's strings drawn with it, app, scene)."""
    app, scene = _app()
    _to_proposer(app, scene, proposer)
    key(app, manoeuvre_key)
    press_button(app, f"Propose: {scale}")
    assert top_name(app) == "handoff"
    key(app, pygame.K_SPACE)
    assert top_name(app) == "battle_proposal"
    frame = _frame(app)
    return frame, list(scene.drawn_strings), app, scene


@pytest.mark.parametrize("scale", ["tactical", "mass"])
@pytest.mark.parametrize("proposer", ["zones", "jibril"])
def test_the_proposal_question_shows_nothing_of_the_proposers_unsealed_orders(
        saves: Path, proposer: str, scale: str) -> None:
    # the QA run: the Zones chose Shock Attack, proposed a tactical battle, and Jibril's
    # Agree / Refuse question sat over the Zones' orders panel (dimmed but readable)
    shock, strings, _app1, scene = _question_frame(proposer, pygame.K_6, scale)
    defend, _strings, _app2, _scene2 = _question_frame(proposer, pygame.K_2, scale)
    assert strings == []  # the map and the side panel are not drawn under the question
    assert shock == defend  # the same screen whatever the proposer had chosen
    assert scene.orders_panel is None or scene._lent is not None


def test_after_a_refusal_the_proposer_gets_the_screen_back_through_one_hand_off(saves: Path) -> None:
    _frame1, _s, app, scene = _question_frame("zones", pygame.K_6, "tactical")
    press_button(app, "Refuse")
    assert top_name(app) == "handoff"  # "Jibril refused. Pass the screen back to The Zones."
    key(app, pygame.K_SPACE)
    app.step([])
    assert app.scenes.top is scene  # no second hand-off for the same pass
    app.render()
    assert any("Orders for battle B1" in s for s in scene.drawn_strings)
    assert scene.orders_panel is not None and scene.orders_panel.orders.manoeuvre == "shock_attack"


def test_when_an_agreed_battle_cannot_be_opened_the_screen_goes_back_through_a_hand_off(
        saves: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _frame1, _s, app, scene = _question_frame("zones", pygame.K_6, "tactical")
    monkeypatch.setattr(scene.fight, "choose", lambda *a, **k: False)  # e.g. the campaign could not be saved
    press_button(app, "Agree")
    app.step([])
    assert top_name(app) == "handoff"  # Jibril is still at the screen: it goes back to the Zones first
    assert app.scenes.top.side_name == "The Zones"
    key(app, pygame.K_SPACE)
    app.render()
    assert any("Orders for battle B1" in s for s in scene.drawn_strings)


def _buttons(scene: Any) -> list[Any]:
    return [el for el in scene.ui.get_sprite_group().sprites() if isinstance(el, pygame_gui.elements.UIButton)]


def test_the_next_players_order_screen_shows_no_hover_left_by_the_pointer_of_the_last(saves: Path) -> None:
    # the QA run: the Zones clicked "6 Shock Attack" and sealed with Enter; Jibril's screen opened
    # with the pointer still there, its button lit and its tooltip up
    app, scene = _app()
    _to_proposer(app, scene, "zones")
    shock = next(b for b in _buttons(scene) if b.text == "6 Shock Attack")
    pygame.mouse.set_pos(shock.rect.center)
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=shock.rect.center, rel=(1, 0), buttons=(0, 0, 0))])
    for _ in range(30):  # long enough for the tooltip
        app.step([])
    assert any(b.hovered for b in _buttons(scene))  # (the pointer is really over it)
    key(app, pygame.K_6)
    key(app, pygame.K_RETURN)  # sealed: the hand-off to the Resistance Fronts
    assert top_name(app) == "handoff"
    key(app, pygame.K_SPACE)
    assert scene.viewer != "zones" and app.scenes.top is scene
    for _ in range(30):
        app.step([])
    assert not any(b.hovered for b in _buttons(scene))
    assert all(b.tool_tip is None for b in _buttons(scene))
    # the pointer moves: hovering works again
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=shock.rect.center, rel=(1, 0), buttons=(0, 0, 0))])
    app.step([])
    assert any(b.hovered for b in _buttons(scene))


def test_the_hint_names_the_vanguard_as_the_orders_panel_does_not_by_its_id(saves: Path) -> None:
    # the QA run: "Hint (hard): Defend in B1, vanguard Zone Rifle Division (rifles.9)"
    app, scene = _app()
    _to_proposer(app, scene, "zones")
    orders = scene.orders_panel.orders
    text = scene._hint_text(orders)
    assert orders.vanguard not in text
    assert f"vanguard {scene.state.unit_type(orders.vanguard).name}" in text




def _mine(scene: Any, kind: str) -> list[Any]:
    return [s.command for s in scene.session.history if s.command.kind == kind and s.command.player == "zones"]


def test_enter_at_the_posts_is_done_posting_as_its_button_says_and_asks_first_while_a_general_is_unnamed(
        saves: Path) -> None:
    # the QA run: the button says "Done posting (Enter)" but the first Enter posted the default text;
    # and Done posting with no post gave no warning although an unnamed General does not fight
    app, scene = _app()
    play_to_posts(app, scene)
    assert scene._unnamed_generals()  # (the Zones' General stands with B1's army)
    key(app, pygame.K_RETURN)
    assert top_name(app) == "done_posting" and not _mine(scene, "post") and not _mine(scene, "narrative_done")
    assert "Colonel Brin (battle B1)" in app.scenes.top.body_text
    key(app, pygame.K_ESCAPE)  # Back: nothing done
    assert app.scenes.top is scene and not _mine(scene, "post") and not _mine(scene, "narrative_done")
    press_button(app, "Done posting (Enter)")  # the button asks the same
    assert top_name(app) == "done_posting"
    key(app, pygame.K_RETURN)  # Post, then done
    assert len(_mine(scene, "post")) == 1 and len(_mine(scene, "narrative_done")) == 1
    assert _mine(scene, "post")[0].generals  # the General is named: he fights


def test_the_done_posting_question_shows_its_two_paragraphs_apart(saves: Path) -> None:
    # its body was markup, where a new line is a space: the paragraph break read as "General).  Post"
    from game.shell.toolkit.richtext import lines_of

    app, scene = _app()
    play_to_posts(app, scene)
    key(app, pygame.K_RETURN)
    assert top_name(app) == "done_posting"
    lines = ["".join(sp.text for sp in line) for line in lines_of(app.scenes.top.body_html)]
    assert len(lines) == 3 and lines[1] == "" and lines[2].startswith("Post, then done:"), lines
    assert "  " not in lines[0]


def test_enter_in_the_post_text_box_posts_it_and_the_next_enter_is_done_without_asking(saves: Path) -> None:
    app, scene = _app()
    play_to_posts(app, scene)
    press_button(app, "Post")  # (a click in the box would do: the button posts the same text)
    assert len(_mine(scene, "post")) == 1 and not _mine(scene, "narrative_done")
    assert not scene._unnamed_generals()
    key(app, pygame.K_RETURN)
    assert top_name(app) != "done_posting" and len(_mine(scene, "narrative_done")) == 1


def test_done_without_a_post_is_a_choice_the_player_makes_knowingly(saves: Path) -> None:
    app, scene = _app()
    play_to_posts(app, scene)
    key(app, pygame.K_RETURN)
    key(app, pygame.K_d)  # Done without
    assert not _mine(scene, "post") and len(_mine(scene, "narrative_done")) == 1


def test_enter_typed_in_the_post_text_box_posts_the_text(saves: Path) -> None:
    app, scene = _app()
    play_to_posts(app, scene)
    scene.text_entry.set_text("Brin holds the line.")
    app.step([pygame.event.Event(pygame_gui.UI_TEXT_ENTRY_FINISHED, ui_element=scene.text_entry,
                                 text="Brin holds the line.")])
    posts = _mine(scene, "post")
    assert len(posts) == 1 and posts[0].text == "Brin holds the line." and not _mine(scene, "narrative_done")


@pytest.mark.parametrize("size", [(1280, 800), (960, 600)])
def test_the_planners_rows_and_columns_are_named_in_full_and_every_cell_fits_its_column(
        saves: Path, size: tuple[int, int]) -> None:
    # the QA run: the rows and columns were cut to "Withdra", "Skirmis", "Attac"
    app, scene = _sized(size)
    _to_proposer(app, scene, "zones")
    app.render()
    rects = dict(scene.drawn_rects)
    rows = [f"{i} {MANOEUVRE_NAMES[m]}" for i, m in enumerate(MANOEUVRES, 1)]
    assert all(r in rects for r in rows), [t for t, _ in scene.drawn_rects]
    x0 = size[0] - 400 + 10
    row_ys = {rects[r].y for r in rows}
    cells = [(t, r) for t, r in scene.drawn_rects if r.y in row_ys and "/" in t]
    assert len(cells) == 36
    names_end = max(rects[r].right for r in rows)
    assert all(names_end < r.left and r.right <= x0 + EQ_MIX_X for _t, r in cells)
    by_row: dict[int, list[Any]] = {}
    for _t, r in cells:
        by_row.setdefault(r.y, []).append(r)
    for rs in by_row.values():  # no cell overlaps the next
        rs.sort(key=lambda r: r.x)
        assert all(a.right < b.left for a, b in zip(rs, rs[1:], strict=False))


@pytest.mark.parametrize("size", [(1280, 800), (960, 600)])
def test_a_message_on_the_orders_screen_is_drawn_whole_above_the_buttons(saves: Path, size: tuple[int, int]) -> None:
    # the QA run at 960x600: F3's refusal went under the Propose buttons
    app, scene = _sized(size)
    _to_proposer(app, scene, "zones")
    text = "The Ascension Isle campaign has no replay view yet: its history is in the log and R shows the battles"
    scene.toast(text)
    app.render()
    drawn = [(t, r) for t, r in scene.drawn_rects if t.strip() and t.strip() in text]
    assert " ".join(t.strip() for t, _ in drawn) == text
    assert all(r.bottom <= scene.widgets_top for _t, r in drawn)



def test_the_next_players_buttons_are_drawn_at_once_after_the_hand_off_before_the_pointer_moves(saves: Path) -> None:
    # (the first way of keeping the hover off stopped the widgets being drawn until the pointer moved)
    app, scene = _app()
    _to_proposer(app, scene, "zones")
    key(app, pygame.K_RETURN)  # sealed: the hand-off to the Resistance Fronts
    key(app, pygame.K_SPACE)
    app.step([])
    app.render()
    seal = next(b for b in _buttons(scene) if b.text == "Seal orders (Enter)")
    assert seal.visible and seal.image.get_bounding_rect().w > 0
    px = app.screen.get_at((seal.rect.x + 3, seal.rect.centery))
    assert tuple(px)[:3] != (30, 32, 38)  # the button, not the bare side panel
