"""One colour per power or side at every scale (issue 28 item 6), from a palette that stays
readable for colour-blind players.

The simulation of colour-vision deficiency is written here from the published matrices of Machado,
Oliveira and Fernandes (2009, "A physiologically-based model for simulation of color vision
deficiency", severity 1.0: protanopia, deuteranopia, tritanopia), applied to linear RGB; colours
are then compared by their CIE76 difference in CIELAB (D65 white)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
import yaml

from game.core.palette import MIN_DISTANCE, PALETTE, palette_colour, rgb

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "maps"

SIMULATIONS: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
VISIONS = ["normal", *SIMULATIONS]


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _seen(colour: str, vision: str) -> tuple[float, float, float]:
    """The colour in linear RGB as a viewer with `vision` sees it."""
    lin = [_linear(v) for v in rgb(colour)]
    if vision == "normal":
        return lin[0], lin[1], lin[2]
    m = SIMULATIONS[vision]
    out = [min(1.0, max(0.0, sum(m[i][j] * lin[j] for j in range(3)))) for i in range(3)]
    return out[0], out[1], out[2]


def _lab(lin: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = lin
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def distance(a: str, b: str, vision: str) -> float:
    """CIE76 difference of two colours as seen with `vision`."""
    la, lb = _lab(_seen(a, vision)), _lab(_seen(b, vision))
    return sum((p - q) ** 2 for p, q in zip(la, lb, strict=True)) ** 0.5


# --------------------------------------------------------------------------- the simulation itself

def test_the_simulation_keeps_white_and_black_and_confuses_what_each_deficiency_confuses():
    for vision in VISIONS:
        assert distance("#ffffff", "#ffffff", vision) == 0
        assert distance("#000000", "#ffffff", vision) == pytest.approx(100, abs=0.5)
    # each deficiency makes one pair of clearly different colours alike, and leaves the others apart
    confused = {"protanopia": ("#d03030", "#006030"),    # red and a dark green
                "deuteranopia": ("#d03030", "#807820"),  # red and olive
                "tritanopia": ("#3050d0", "#5070a0")}    # blue and slate
    for vision, (a, b) in confused.items():
        assert distance(a, b, "normal") > 50
        assert distance(a, b, vision) < 12, vision
        assert all(distance(a, b, other) > 25 for other in SIMULATIONS if other != vision), vision


def test_the_old_zone_blue_and_jibril_purple_were_one_colour_for_a_protanope():
    assert distance("#3f6fc6", "#8a5bb8", "normal") > MIN_DISTANCE
    assert distance("#3f6fc6", "#8a5bb8", "protanopia") < 10  # why the palette changed


# --------------------------------------------------------------------------- the palette

@pytest.mark.parametrize("vision", VISIONS)
def test_every_two_palette_colours_stay_apart_with_each_colour_vision(vision):
    colours = [c for _, c in PALETTE]
    assert len(colours) >= 6 and len(set(colours)) == len(colours)
    worst = min((distance(a, b, vision), a, b) for a, b in itertools.combinations(colours, 2))
    assert worst[0] >= MIN_DISTANCE, f"{vision}: {worst[1]} and {worst[2]} are only {worst[0]:.1f} apart"


def test_every_palette_colour_stands_out_from_the_islands_land_and_the_windows_dark_panels():
    # land tiles as render draws the island (plains, hills, road, a fortress hex, a town hex): the
    # armies stand on them (never on the sea, where a counter's black rim does the work); and the
    # panels the mass board and the hand-off screen write force names and bars on
    grounds = ["#80a458", "#a09660", "#af9b6f", "#887c5c", "#86966a", "#1c1f25"]
    for name, c in PALETTE:
        for vision in VISIONS:
            worst = min(grounds, key=lambda g: distance(c, g, vision))
            assert distance(c, worst, vision) > 15, (name, vision, worst)


# --------------------------------------------------------------------------- the shipped files

POWER_OF_SIDE = {"zone": "zones", "zones": "zones", "zenith": "zenith", "jibril": "jibril",
                 "resistance": "resistance"}


def _campaign_colours() -> dict[str, str]:
    """power -> colour in the shipped campaigns (each power one colour in all of them)."""
    from game.systems.campaign.io.files import load_campaign

    seen: dict[str, str] = {}
    for path in sorted((MAPS / "campaign").glob("*.yaml")):
        if path.name.endswith("-commands.yaml"):
            continue
        setup = load_campaign(path).setup
        for p in setup.players:
            colour = setup.colour_of(p.id)
            assert seen.setdefault(p.power, colour) == colour, f"{path.name}: {p.power} changes colour"
    return seen


def test_each_power_has_one_palette_colour_of_its_own_in_every_shipped_campaign():
    colours = _campaign_colours()
    assert set(colours) == {"zones", "resistance", "zenith", "jibril"}
    assert len(set(colours.values())) == len(colours)
    assert set(colours.values()) <= {c for _, c in PALETTE}


def test_every_shipped_tactical_scenario_gives_a_powers_side_its_campaign_colour():
    powers = _campaign_colours()
    checked = 0
    for path in sorted(MAPS.glob("*.yaml")):
        if path.name.endswith("-commands.yaml"):
            continue
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        colours = [s["colour"].lower() for s in data["sides"]]
        assert len(set(colours)) == len(colours), path.name
        assert set(colours) <= {c for _, c in PALETTE}, path.name
        for side in data["sides"]:
            power = POWER_OF_SIDE.get(side["id"])
            if power is not None:
                assert side["colour"].lower() == powers[power], f"{path.name}: side {side['id']}"
                checked += 1
    assert checked >= 6


def test_a_campaign_player_without_a_colour_takes_the_palettes_and_a_bad_or_shared_one_is_refused(tmp_path):
    from game.core.errors import GameFileError
    from game.systems.campaign.io.files import load_campaign

    text = (MAPS / "campaign" / "teaching.yaml").read_text(encoding="utf-8")
    bare = text
    for c in ('"#3f4cc8"', '"#fe9f01"', '"#cc5514"', '"#b174a4"'):
        bare = bare.replace(f", colour: {c}", "")
    assert "colour" not in bare
    tmx = (MAPS / "campaign" / "ascension-isle.tmx").as_posix()
    text = text.replace("map: ascension-isle.tmx", f"map: {tmx}")
    bare = bare.replace("map: ascension-isle.tmx", f"map: {tmx}")
    path = tmp_path / "teaching.yaml"
    path.write_text(bare, encoding="utf-8")
    setup = load_campaign(path).setup
    assert [setup.colour_of(p.id) for p in setup.players] == [palette_colour(i) for i in range(4)]
    path.write_text(text.replace('colour: "#fe9f01"', 'colour: "orange"'), encoding="utf-8")
    with pytest.raises(GameFileError, match="colour"):
        load_campaign(path)
    path.write_text(text.replace('colour: "#fe9f01"', 'colour: "#3F4CC8"'), encoding="utf-8")
    with pytest.raises(GameFileError, match="Resistance Fronts has the colour #3f4cc8 of The Zones"):
        load_campaign(path)


# --------------------------------------------------------------------------- across the scales

def _hex(colour) -> str:
    r, g, b = colour
    return f"#{r:02x}{g:02x}{b:02x}"


def _campaign_in_orders():
    from game.core.record import Record
    from game.systems.campaign.io.files import load_campaign, read_script
    from game.systems.campaign.rules import SYSTEM

    loaded = load_campaign(MAPS / "campaign" / "teaching.yaml")
    rec = Record(SYSTEM, SYSTEM.initial_state(loaded.setup, loaded.seed))
    for cmd in read_script(ROOT / "tests" / "bridge" / "week1-to-orders.yaml"):
        assert rec.apply(cmd).accepted
    return rec.state


def test_a_campaign_battle_fought_out_keeps_each_powers_campaign_colour_at_both_scales(tmp_path):
    from game.bridge.files import load_scales_rules, mass_map_terrain, write_mass
    from game.bridge.mass import mass_plan
    from game.bridge.tiled import generate_tactical
    from game.systems.mass.io.files import load_battle
    from game.systems.mass.io.picture import force_colours
    from game.systems.tactical.io.scenario import load_scenario

    state = _campaign_in_orders()
    rules = load_scales_rules()
    battles = state.open_games()
    assert len(battles) == 2
    for battle in battles:
        want = {p: state.cs.colour_of(p) for p in battle.sides}
        assert len(set(want.values())) == 2
        made = generate_tactical(state, battle.id, rules, tmp_path, f"{battle.id}-tactical")
        assert {s["id"]: s["colour"] for s in made.plan.scenario["sides"]} == want
        scenario = load_scenario(made.scenario)
        assert {s.id: _hex(s.colour) for s in scenario.setup.sides} == want
        mass = mass_plan(state, battle.id, rules, mass_map_terrain()).battle
        assert {f["id"]: f["colour"] for f in mass["forces"]} == want
        setup = load_battle(write_mass(mass, tmp_path, f"{battle.id}-mass")).setup
        assert {f: _hex(c) for f, c in force_colours(setup).items()} == want
