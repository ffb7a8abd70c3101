"""No side's view tells the dice to come, in any shipped system: the generator's state and the
GM's forced rolls are the GM's alone (a player, or a computer player, who saw them could predict
every roll). The GM's view (side None) keeps them."""

from __future__ import annotations

from pathlib import Path

import pytest

from game import paths
from game.table import TABLE

SETUPS = {
    "ail-tactical": "maps/default.yaml",
    "campaign": "maps/campaign/teaching.yaml",
    "mass-battle": "maps/mass/borderland-valley.yaml",
}
DICE_FIELDS = ("rng", "forced", "forced_rolls")


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_no_sides_view_holds_the_generator_or_the_forced_rolls(name: str) -> None:
    plugin = TABLE.plugin_named(name)
    loaded = plugin.load(Path(paths.data_root()) / SETUPS[name])
    system = plugin.system
    state = system.initial_state(plugin.setup_of(loaded), 12345)
    other = system.initial_state(plugin.setup_of(loaded), 54321)
    fields = [f for f in DICE_FIELDS if hasattr(state, f)]
    assert "rng" in fields and state.rng != other.rng  # the seed is in the state
    for side in system.summary(state)["sides"]:
        seen, seen_other = system.view(state, side), system.view(other, side)
        for f in fields:
            assert not getattr(seen, f), f"{name}: the {side} view shows {f}"
            assert getattr(seen, f) == getattr(seen_other, f)
    assert system.view(state, None).rng == state.rng  # the GM sees everything
