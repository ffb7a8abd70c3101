"""The battle planner shows the equilibrium of the battle as a zero-sum game (issue 32, "the same
equilibrium advises humans"): beside each manoeuvre its chance in the equilibrium mix and what it
gives up against the enemy's mix, then the battle's value and the enemy's mix, all as
game/systems/campaign/rules/equilibrium.py gives them for the player's view; the figures do not
depend on what the other side sealed; `campaign plan` prints the same figures; at 960x600 the
planner still fits (the lines under the table in compact form)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402
import yaml  # noqa: E402

from game.__main__ import main  # noqa: E402
from game.shell.app import App, Settings  # noqa: E402
from game.shell.launch import open_game, scene_for  # noqa: E402
from game.systems.campaign.client.orders_panel import (  # noqa: E402
    SHORT_NAMES,
    foe_mix_text,
    gives_text,
    mix_text,
    value_text,
)
from game.systems.campaign.rules import SYSTEM  # noqa: E402
from game.systems.campaign.rules.equilibrium import equilibrium  # noqa: E402
from game.systems.campaign.rules.models import MANOEUVRE_NAMES, MANOEUVRES  # noqa: E402
from game.table import TABLE  # noqa: E402
from tests.client.test_campaign_client import key, play_to_orders, through_handoff  # noqa: E402

MAPS = Path(__file__).resolve().parents[2] / "maps" / "campaign"


def _app(size: tuple[int, int] = (1280, 800)) -> tuple[App, Any]:
    session = open_game(TABLE, str(MAPS / "teaching.yaml"))
    app = App(TABLE, size=size, headless=True, settings=Settings(animation="instant"))
    scene = scene_for(app, session)
    app.push(scene)
    play_to_orders(app, scene)
    through_handoff(app)
    app.render()
    return app, scene


def _shown(scene: Any) -> list[str]:
    return list(scene.drawn_strings)


def _expected(scene: Any, battle: str, player: str) -> Any:
    """The equilibrium computed here, independently of the panel, from the player's view."""
    return equilibrium(SYSTEM.view(scene.state, player), battle, player)


def _assert_figures_shown(scene: Any, eq: Any, full: bool) -> None:
    shown = _shown(scene)
    summary = eq.manoeuvre_summary()
    assert "mix" in shown and "gives up" in shown
    # the columns: one mix and one gives-up figure per planner row, in the planner's row order
    mixes = [s for s in shown if s.endswith("%") and s[:-1].isdigit() or s == "-"]
    for m in MANOEUVRES:
        chance, gives = summary.get(m, (None, None))
        assert mix_text(chance) in shown and gives_text(gives) in shown, MANOEUVRE_NAMES[m]
    assert len(mixes) >= len(MANOEUVRES)
    text = " ".join(" ".join(shown).split())  # (wrapped lines joined again)
    assert value_text(eq.value) in text
    if full:
        assert f"Equilibrium value {value_text(eq.value)} to you" in text
        assert foe_mix_text(eq) in text
        assert "Zero-sum payoff: expected casualties inflicted minus taken" in text
        assert "Your mix with its stratagems: " + ", ".join(f"{s.label} {p:.0%}" for s, p in eq.best_rows(0.005)) in text
    else:
        assert foe_mix_text(eq, short=True) in text and "(compact)" in text


def test_the_planner_shows_the_figures_equilibrium_gives_for_the_viewing_players_battle() -> None:
    app, scene = _app()
    panel = scene.orders_panel
    assert panel is not None and scene.viewer == "zones"
    eq = _expected(scene, panel.battle_id, "zones")
    assert panel.equilibrium() == eq  # the panel's own figures are the rules' equilibrium
    _assert_figures_shown(scene, eq, full=True)
    # the columns line up with the planner's rows: the figure drawn on a row's line is that manoeuvre's
    summary = eq.manoeuvre_summary()
    for i, m in enumerate(MANOEUVRES, 1):
        name = f"{i} {MANOEUVRE_NAMES[m]}"  # (the row's name, as on the manoeuvre's button)
        ys = [r.y for t, r in scene.drawn_rects if t == name]
        assert ys, name
        on_line = [t for t, r in scene.drawn_rects if r.y == ys[0]]
        chance, gives = summary.get(m, (None, None))
        assert mix_text(chance) in on_line and gives_text(gives) in on_line, (name, on_line)


def test_the_equilibrium_figures_are_the_same_whatever_the_other_side_sealed() -> None:
    seen: list[list[str]] = []
    for zones_key in (pygame.K_1, pygame.K_5):  # the Zones seal Withdraw, or Attack, in B1
        app, scene = _app()
        key(app, zones_key)
        key(app, pygame.K_RETURN)
        for _ in range(6):  # on to Jibril, the Zones' enemy in B1 (the others seal their defaults)
            through_handoff(app)
            if scene.viewer == "jibril":
                break
            key(app, pygame.K_RETURN)
        assert scene.viewer == "jibril" and scene.orders_panel is not None
        assert "zones" in scene.state.battles[scene.orders_panel.battle_id].orders  # sealed, and differently
        app.render()
        eq = _expected(scene, scene.orders_panel.battle_id, "jibril")
        _assert_figures_shown(scene, eq, full=True)
        seen.append([t for t in _shown(scene) if t.endswith("%") or "value" in t or t[:1].isdigit()])
    assert seen[0] == seen[1]


def test_the_planner_fits_at_960x600_with_the_equilibrium_in_a_compact_line() -> None:
    app, scene = _app((960, 600))
    panel = scene.orders_panel
    eq = _expected(scene, panel.battle_id, "zones")
    _assert_figures_shown(scene, eq, full=False)
    bottom = scene.widgets_top
    for text, r in scene.drawn_rects:
        if r.x >= 960 - 400 and r.y > 300:  # the panel's text stays above its buttons and inside the window
            assert r.bottom <= bottom and r.right <= 960, text


def test_campaign_plan_prints_the_same_equilibrium_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plugin = TABLE.plugin_named("campaign")
    loaded = plugin.load(MAPS / "teaching.yaml")
    raw = yaml.safe_load((MAPS / "teaching-commands.yaml").read_text())
    commands = plugin.read_script(MAPS / "teaching-commands.yaml", loaded)
    state = SYSTEM.initial_state(plugin.setup_of(loaded), loaded.seed)
    done = 0
    for command in commands:  # the teaching script up to the first sealed orders
        if state.phase == "orders":
            break
        state = SYSTEM.apply(state, command).state
        done += 1
    assert state.phase == "orders"
    script = tmp_path / "to-orders.yaml"
    script.write_text(yaml.safe_dump(raw[:done]))
    assert main(["campaign", "plan", str(MAPS / "teaching.yaml"), str(script), "--battle", "B1",
                 "--player", "jibril"]) == 0
    out = capsys.readouterr().out
    eq = equilibrium(SYSTEM.view(state, "jibril"), "B1", "jibril")
    assert "equilibrium (zero-sum" in out
    for m in MANOEUVRES:
        chance, gives = eq.manoeuvre_summary().get(m, (None, None))
        if chance is not None:
            assert f"{MANOEUVRE_NAMES[m]:>12}  mix {mix_text(chance)}  gives up {gives_text(gives)}" in out
    assert f"value {value_text(eq.value)} to Jibril" in out
    assert f"{state.player_name(eq.foe)}'s mix: {foe_mix_text(eq)}" in out


_LAZY = """
import sys
from tests.client.test_campaign_client import key, play_to_orders, through_handoff
import pygame
from game.shell.app import App, Settings
from game.shell.launch import open_game, scene_for
from game.table import TABLE
session = open_game(TABLE, "maps/campaign/teaching.yaml")
app = App(TABLE, size=(1280, 800), headless=True, settings=Settings(animation="instant"))
scene = scene_for(app, session)
app.push(scene)
app.render()
print("start", "scipy" in sys.modules)
through_handoff(app)
key(app, pygame.K_e)  # the planner hidden: the orders screen solves nothing
play_to_orders(app, scene)
through_handoff(app)
app.render()
assert not scene.show_planner and scene.orders_panel is not None
print("hidden", "scipy" in sys.modules)
key(app, pygame.K_e)
print("shown", "scipy" in sys.modules)
"""


def test_scipy_is_imported_only_when_the_planner_is_shown() -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, "-c", _LAZY], cwd=root, env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[-4:-1] == ["start False", "hidden False", "shown True"], out.stdout



def test_the_compact_mix_line_abbreviates_manoeuvres_as_abbreviations_not_cut_words() -> None:
    assert set(SHORT_NAMES) == set(MANOEUVRE_NAMES)
    for m, short in SHORT_NAMES.items():  # a cut word ("Attac", "Withd") read as a typo (QA)
        assert short.endswith(".") or short in MANOEUVRE_NAMES[m].split(), (m, short)
