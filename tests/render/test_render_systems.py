"""`validate` and `render` for every rule system (issue 28 item 5): each shipped scenario and a save
made by each shipped command script is valid (a save named by its system's own clock: round, week,
Wave) and renders to a PNG through its system's picture (Plugin.picture, found in the table): a
tactical battle's map and units, a campaign's island with its armies in their powers' colours,
their routes and its open battles, a mass battle's board; anything else gets a clear error."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.__main__ import main  # noqa: E402
from game.cli.render import picture  # noqa: E402
from game.core.errors import UserError  # noqa: E402
from game.core.plugin import PictureOptions, Table  # noqa: E402
from game.core.record import Record  # noqa: E402
from game.io.tmx import load_map  # noqa: E402
from game.table import SYSTEMS, TABLE  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "maps"
SCRIPTS = sorted(MAPS.rglob("*-commands.yaml"))
SCENARIOS = sorted(p for p in MAPS.rglob("*.yaml") if not p.name.endswith("-commands.yaml"))
CLOCK = {"ail-tactical": "Round", "campaign": "Week", "mass-battle": "Wave"}


def _system_of(path: Path) -> str:
    from game.io.sniff import peek_system

    return peek_system(path, TABLE.default)


def _save_of(script: Path, tmp_path: Path) -> Path:
    scenario = script.with_name(script.name.replace("-commands.yaml", ".yaml"))
    out = tmp_path / f"{scenario.stem}-save.yaml"
    # 3: some commands refused, as a teaching script may do on purpose (demo-movement's one)
    assert main(["run", str(scenario), "--commands", str(script), "--out", str(out)]) in (0, 3)
    assert out.is_file()
    return out


def _colour_near(img: pygame.Surface, x: float, y: float, colour: tuple[int, int, int], tol: int = 6) -> bool:
    c = img.get_at((round(x), round(y)))
    return all(abs(a - b) <= tol for a, b in zip(c[:3], colour, strict=True))


def test_every_system_has_a_picture_and_names_its_set_up_kind():
    for plugin in TABLE:
        assert plugin.picture is not None, plugin.name
        assert plugin.files is not None and plugin.files.setups, plugin.name
        for kind in plugin.files.setups:
            assert TABLE.plugin_of_setup(kind) is plugin


def test_the_shipped_scenarios_cover_all_three_systems():
    assert {_system_of(p) for p in SCENARIOS} == set(CLOCK)
    assert {_system_of(s.with_name(s.name.replace("-commands.yaml", ".yaml"))) for s in SCRIPTS} == set(CLOCK)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: str(p.relative_to(MAPS)))
def test_every_shipped_scenario_validates_and_renders_to_a_png(scenario, tmp_path, capsys):
    assert main(["validate", str(scenario)]) == 0
    assert capsys.readouterr().out.startswith(f"ok: {scenario}")
    out = tmp_path / "scenario.png"
    assert main(["render", str(scenario), "--out", str(out), "--scale", "0.25"]) == 0
    img = pygame.image.load(str(out))
    assert img.get_width() > 200 and img.get_height() > 100


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(MAPS)))
def test_a_save_made_by_each_shipped_script_validates_with_its_systems_clock_and_renders(script, tmp_path, capsys):
    save = _save_of(script, tmp_path)
    capsys.readouterr()
    assert main(["validate", str(save)]) == 0
    line = capsys.readouterr().out.strip()
    system = _system_of(script.with_name(script.name.replace("-commands.yaml", ".yaml")))
    title = TABLE.plugin_named(system).system.title
    assert line.startswith(f"ok: {save} (save of {title}, {CLOCK[system]} ")
    assert "Round" not in line or system == "ail-tactical"
    out = tmp_path / "save.png"
    assert main(["render", str(save), "--out", str(out), "--scale", "0.5"]) == 0
    assert out.stat().st_size > 1000


# --------------------------------------------------------------------------- the campaign

def _teaching() -> tuple[object, object]:
    from game.systems.campaign.io.files import load_campaign

    loaded = load_campaign(MAPS / "campaign" / "teaching.yaml")
    plugin = TABLE.plugin_named("campaign")
    return loaded, plugin


def _centre(loaded: object, c: tuple[int, int], scale: float = 1.0) -> tuple[float, float]:
    md = load_map(MAPS / "campaign" / "ascension-isle.tmx")
    x, y = md.layout.tile_center(*c)
    return x * scale, y * scale


def test_a_campaign_scenario_draws_each_army_in_its_powers_colour_at_its_hex():
    from game.systems.campaign.io.picture import player_colours

    loaded, plugin = _teaching()
    img = picture(TABLE, MAPS / "campaign" / "teaching.yaml", PictureOptions())
    colours = player_colours(loaded.setup)
    assert len(set(colours.values())) == len(colours)  # one colour per power
    for army in loaded.setup.armies:
        x, y = _centre(loaded, army.hex)
        # a corner of the counter (its middle holds the number of units)
        assert _colour_near(img, x - 12, y - 12, colours[army.owner]), army.id


def test_a_campaign_save_draws_armies_where_they_stand_their_routes_and_the_open_battles():
    from game.systems.campaign.io.files import read_script
    from game.systems.campaign.io.picture import BATTLE_RING, player_colours

    loaded, plugin = _teaching()
    record = Record(plugin.system, plugin.system.initial_state(loaded.setup, loaded.seed))
    for command in read_script(MAPS / "campaign" / "teaching-commands.yaml"):
        assert record.apply(command).accepted
        if record.state.open_games():
            break
    state = record.state
    battle = state.open_games()[0]
    img = plugin.picture(loaded, state, PictureOptions())
    colours = player_colours(loaded.setup)
    md = load_map(MAPS / "campaign" / "ascension-isle.tmx")
    bx, by = md.layout.tile_center(*battle.hex)
    ring = round(min(md.layout.tw, md.layout.th) * 0.3) * 2  # the ring's radius (twice a half counter)
    assert any(_colour_near(img, bx + dx, by + dy, BATTLE_RING, 20)
               for dx, dy in ((-ring, 0), (ring, 0), (0, ring), (0, -ring)))
    moved = [a for a in state.armies.values() if a.route is not None and a.route != a.hex]
    assert moved
    for a in moved:
        x0, y0 = md.layout.tile_center(*a.route)
        x1, y1 = md.layout.tile_center(*a.hex)
        # the route's arrow leaves the hex the army came from in the army's colour
        assert any(_colour_near(img, x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, colours[a.owner])
                   for t in (0.15, 0.2, 0.25, 0.3)), a.id
    before = plugin.picture(loaded, None, PictureOptions())
    assert pygame.image.tobytes(before, "RGB") != pygame.image.tobytes(img, "RGB")


def test_a_campaign_picture_without_units_leaves_the_armies_out():
    loaded, plugin = _teaching()
    bare = plugin.picture(loaded, None, PictureOptions(units=False))
    from game.systems.campaign.io.picture import player_colours

    colours = player_colours(loaded.setup)
    army = loaded.setup.armies[0]
    x, y = _centre(loaded, army.hex)
    assert not _colour_near(bare, x - 12, y - 12, colours[army.owner])


def test_a_campaign_picture_too_large_is_refused_before_drawing():
    with pytest.raises(UserError, match="smaller scale"):
        picture(TABLE, MAPS / "campaign" / "teaching.yaml", PictureOptions(scale=16))


# --------------------------------------------------------------------------- mass battles

def test_a_mass_battle_and_its_save_render_its_board_with_each_force_in_its_colour(tmp_path):
    from game.systems.mass.io.files import load_battle
    from game.systems.mass.io.picture import force_colours

    battle = MAPS / "mass" / "borderland-valley.yaml"
    colours = force_colours(load_battle(battle).setup)
    assert len(set(colours.values())) == len(colours)
    start = picture(TABLE, battle, PictureOptions())
    w = start.get_width() // len(colours)
    for i, colour in enumerate(colours.values()):  # the coloured stripe on top of each force's column
        assert _colour_near(start, i * w + w // 2, 47, colour), i
    save = _save_of(MAPS / "mass" / "borderland-valley-commands.yaml", tmp_path)
    later = picture(TABLE, save, PictureOptions())
    assert pygame.image.tobytes(start, "RGB") != pygame.image.tobytes(later, "RGB")
    half = picture(TABLE, save, PictureOptions(scale=0.5))
    assert half.get_width() == later.get_width() // 2


@pytest.mark.parametrize(("options", "words"), [(PictureOptions(grid=True), "--grid"),
                                                (PictureOptions(units=False), "--no-units")])
def test_a_mass_battle_refuses_what_a_board_has_no_use_for(options, words):
    with pytest.raises(UserError, match=words):
        picture(TABLE, MAPS / "mass" / "borderland-valley.yaml", options)


# --------------------------------------------------------------------------- anything else

@pytest.mark.parametrize(("path", "words"), [
    ("maps/campaign/teaching-commands.yaml", "a campaign commands file; render draws"),
    ("assets/rules/campaign.yaml", "a campaign rules file; render draws"),
    ("assets/rules/mass-battle.yaml", "a mass rules file; render draws"),
    ("maps/demo-movement-commands.yaml", "not a set-up; render draws"),
])
def test_render_says_what_a_file_is_when_it_cannot_draw_it(path, words, tmp_path, capsys):
    if not (ROOT / path).exists():
        pytest.skip(f"{path} is not shipped")
    assert main(["render", str(ROOT / path), "--out", str(tmp_path / "x.png")]) == 1
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "x.png").exists()


def test_a_system_without_a_picture_is_named_in_a_clear_error_and_its_save_validates_by_its_clock(tmp_path):
    from game.cli.validate import check_file, clock_word
    from game.replay import save_game
    from tests.race import plugin as race
    from tests.race.racesystem import SYSTEM, load_race

    table = Table([*SYSTEMS, race.PLUGIN])  # the test system: no picture
    assert table.plugin_named("race").picture is None
    path = tmp_path / "race.yaml"
    path.write_text("system: race\nname: The Long Straight\nlength: 12\nsides: [hare, tortoise]\nseed: 11\n",
                    encoding="utf-8")
    loaded = load_race(path)
    record = Record(SYSTEM, SYSTEM.initial_state(loaded.setup, loaded.seed))
    save = save_game(tmp_path / "s.yaml", SYSTEM, record.state, record.steps, scenario_path=path, seed=loaded.seed)
    with pytest.raises(UserError, match="has no picture to render"):
        picture(table, save, PictureOptions())
    assert f", {clock_word(SYSTEM).capitalize()} 1, 0 commands" in check_file(table, save)
