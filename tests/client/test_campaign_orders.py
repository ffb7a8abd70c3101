"""Orders by mouse (issue 29, item 2), headless with real mouse clicks on the panel's widgets.

Every legal order of the Resistance in battle B2 (each manoeuvre, each legal set of the
stratagems that go with it, each kind of unit that may lead it) is entered by clicks alone and
is the order the rules accept; the default vanguard is the rules' best; a refused stratagem is
greyed with its reason; the withdraw hex is picked on the map; the planner's chosen row is
computed for exactly these orders.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pygame

from game.core.system import Accepted
from game.systems.campaign.rules import orders as q
from game.systems.campaign.rules.battle import side_facts
from game.systems.campaign.rules.combat import orders_refusal
from game.systems.campaign.rules.models import MANOEUVRES
from game.systems.campaign.rules.planner import plan
from tests.client.clientfix import click_at
from tests.client.test_campaign_client import _app, key, play_to_orders, through_handoff


def _to_resistance() -> tuple[Any, Any]:
    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    key(app, pygame.K_1)
    key(app, pygame.K_RETURN)  # the Zones seal
    through_handoff(app)
    assert scene.viewer == "resistance"
    return app, scene


def _button(scene: Any, what: str, arg: str) -> Any:
    found = [b for b, v in scene.orders_panel.widgets.items() if v == (what, arg)]
    assert found, (what, arg)
    return found[0]


def _click(app: Any, scene: Any, what: str, arg: str) -> None:
    click_at(app, _button(scene, what, arg).rect.center)
    app.render()


def _click_vanguard(app: Any, scene: Any, uid: str) -> None:
    panel = scene.orders_panel
    kind = scene.state.unit_type(uid).name  # identical units share one line of the list
    label = next(lab for lab, u in panel.vanguard_ids.items() if scene.state.unit_type(u).name == kind)
    lst = panel.vanguard_list
    items = [el for el in lst.item_list_container.elements if el.text == label]
    if not items:  # scrolled out of sight: scroll the list down until it shows
        for _ in range(10):
            lst.vert_scroll_bar.scroll_position += 20
            lst.vert_scroll_bar.start_percentage = min(1.0, lst.vert_scroll_bar.start_percentage + 0.3)
            app.step()
            items = [el for el in lst.item_list_container.elements if el.text == label and el.visible]
            if items:
                break
    assert items, label
    click_at(app, items[0].rect.center)
    app.render()


def test_the_default_vanguard_is_the_rules_best_for_each_manoeuvre() -> None:
    app, scene = _to_resistance()
    panel = scene.orders_panel
    for i, m in enumerate(MANOEUVRES):
        _click(app, scene, "manoeuvre", m)
        assert scene.orders_panel.orders.manoeuvre == m
        assert scene.orders_panel.orders.vanguard == q.best_vanguard(scene.seen, panel.battle_id, "resistance", m)
        assert scene.orders_panel.orders.vanguard == scene.orders_panel.choices.best_vanguard, i


def test_every_legal_order_is_entered_by_mouse_and_accepted_by_the_rules() -> None:
    app, scene = _to_resistance()
    st = scene.seen
    b = st.battles[scene.orders_panel.battle_id]
    facts = side_facts(st, b, "resistance")
    rules = st.cs.rules
    entered = 0
    for m in MANOEUVRES:
        _click(app, scene, "manoeuvre", m)
        kinds: dict[str, str] = {}
        for u in facts.units:
            if orders_refusal(rules, facts, m, (), u.id) is None:
                kinds.setdefault(u.type.name, u.id)
        for uid in kinds.values():
            best_type = facts.unit(scene.orders_panel.orders.vanguard).type.name  # type: ignore[union-attr]
            if facts.unit(uid).type.name != best_type:  # type: ignore[union-attr]
                _click_vanguard(app, scene, uid)
            van = scene.orders_panel.orders.vanguard
            assert facts.unit(van).type.name == facts.unit(uid).type.name  # type: ignore[union-attr]
            goes = [s.id for s in scene.orders_panel.choices.stratagems if s.goes_with]
            legal = [set(c) for n in range(len(goes) + 1) for c in combinations(goes, n)
                     if orders_refusal(rules, facts, m, c, van) is None]
            for subset in legal:
                for s in list(scene.orders_panel.orders.stratagems):  # clear by clicking again
                    _click(app, scene, "stratagem", s)
                for s in sorted(subset):
                    _click(app, scene, "stratagem", s)
                o = scene.orders_panel.orders
                assert (o.manoeuvre, o.vanguard, set(o.stratagems)) == (m, van, subset)
                assert isinstance(scene.system.apply(scene.state, o), Accepted)
                entered += 1
    assert entered >= 20


def test_a_refused_stratagem_is_greyed_and_its_tooltip_says_why() -> None:
    app, scene = _to_resistance()
    _click(app, scene, "manoeuvre", "defend")
    refused = [s for s in scene.orders_panel.choices.stratagems if s.goes_with and s.refusal]
    assert refused
    for s in refused:
        b = _button(scene, "stratagem", s.id)
        assert not b.is_enabled
        assert s.refusal in b.tool_tip_text and s.requirement in b.tool_tip_text
    tips = {v[1]: b.tool_tip_text for b, v in scene.orders_panel.widgets.items() if v[0] == "manoeuvre"}
    assert "beats Skirmish, Attack" in tips["defend"] and "loses to Withdraw" in tips["defend"]


def test_the_withdraw_hex_is_picked_on_the_map_and_sealed_with_the_orders() -> None:
    app, scene = _to_resistance()
    _click(app, scene, "manoeuvre", "withdraw")
    _click(app, scene, "pick", "withdraw")
    options = scene.orders_panel.choices.withdraw_hexes
    assert scene.orders_panel.picking == "withdraw" and options
    click_at(app, tuple(int(v) for v in scene.hex_centre(options[-1])))
    assert scene.orders_panel.orders.withdraw_to == options[-1] and scene.orders_panel.picking is None
    battle = scene.orders_panel.battle_id
    key(app, pygame.K_RETURN)
    assert scene.state.battles[battle].orders["resistance"].withdraw_to == options[-1]


def test_the_planners_row_for_the_chosen_manoeuvre_is_computed_for_exactly_these_orders() -> None:
    app, scene = _to_resistance()
    _click(app, scene, "manoeuvre", "attack")
    o = scene.orders_panel.orders
    app.render()
    p = plan(scene.seen, o.battle, "resistance", o.stratagems, o.vanguard)
    row = [c for c in p.cells if c.mine == "attack"]
    mark_y = next(r.y for t, r in scene.drawn_rects if t == ">")  # the chosen row's marker
    shown = [t for t, r in scene.drawn_rects if r.y == mark_y]  # (each cell is drawn on its own)
    assert "5 Attack" in shown and any(t.startswith(f"{round(100 * row[0].win)}/") for t in shown)
    assert any("assumed to lead each manoeuvre with its strongest vanguard" in s or "strongest" in s
               for s in scene.drawn_strings) or any("best vanguard, no stratagems" in s for s in scene.drawn_strings)


def test_the_orders_queries_keep_what_still_goes_with_a_new_manoeuvre_and_say_what_they_dropped() -> None:
    app, scene = _to_resistance()
    st = scene.seen
    bid = scene.orders_panel.battle_id
    c = q.choices(st, bid, "resistance", "withdraw")
    with_flee = q.toggled(st, c.orders, "flee")
    assert with_flee.stratagems == ("flee",)
    keep = q.choices(st, bid, "resistance", "defend", with_flee.vanguard, ("flee", "deception"))
    assert keep.orders.stratagems == ("flee",)  # Flee goes with any manoeuvre; Deception only with Withdraw
    assert any(d.startswith("Deception dropped: ") and "goes with Withdraw" in d for d in keep.dropped)
    for info in q.manoeuvres(st.cs.rules):  # the tooltips' matchups are the rules' matchups
        assert set(info.beats) == set(st.cs.rules.matchups[info.id])
        assert all(info.id in st.cs.rules.matchups[o] for o in info.loses_to)
    assert "needs a fighting General of level 2+" in q.requirement(st.cs.rules, "feint")


def test_a_side_beaten_by_a_block_sees_withdraw_greyed_with_the_reason_and_cannot_pick_it() -> None:
    from tests.client.test_campaign_client import enter, past_reveal

    app, scene = _app()
    play_to_orders(app, scene)
    for k in (pygame.K_1, pygame.K_5, pygame.K_2, pygame.K_3):  # the Zones withdraw, Jibril blocks
        through_handoff(app)
        key(app, k)
        key(app, pygame.K_RETURN)
    past_reveal(app)
    for _ in range(40):  # week 2 up to the Zones' orders (Enter: end turn, post, done posting)
        through_handoff(app)
        if scene.state.phase == "orders" and scene.viewer == "zones":
            break
        enter(app)
    assert scene.state.phase == "orders" and scene.viewer == "zones"
    assert any(a.locked_week >= scene.state.week for a in scene.state.armies.values() if a.owner == "zones")
    withdraw = _button(scene, "manoeuvre", "withdraw")
    assert not withdraw.is_enabled and "beaten by a Block" in withdraw.tool_tip_text
    key(app, pygame.K_1)
    assert scene.orders_panel.orders.manoeuvre != "withdraw"
    assert any("beaten by a Block" in s for s in scene.drawn_strings)
    key(app, pygame.K_RETURN)  # the orders offered are accepted
    assert "zones" in scene.state.battles["B1"].orders or scene.state.week == 3
