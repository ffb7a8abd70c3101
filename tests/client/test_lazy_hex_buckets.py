"""The map cache's grid index worked out per bucket on demand (`HexBuckets`, so opening a battle
does not go over every hex of a big map: issue 14) holds exactly the hexes of the whole-map index
(`_hex_buckets`) in every bucket, for every stagger, tile shape and map with holes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.hexgrid import Stagger
from game.core.hexlayout import HexLayout
from game.shell.mapcache import BUCKET, HexBuckets, _hex_buckets


@settings(max_examples=120, deadline=None)
@given(axis=st.sampled_from(["x", "y"]), index=st.sampled_from(["odd", "even"]), tw=st.integers(2, 300),
       th=st.integers(2, 300), side=st.integers(0, 300), w=st.integers(1, 14), h=st.integers(1, 14),
       holes=st.sets(st.tuples(st.integers(0, 13), st.integers(0, 13)), max_size=20))
def test_every_bucket_worked_out_on_demand_holds_the_hexes_of_the_whole_map_index(
        axis: str, index: str, tw: int, th: int, side: int, w: int, h: int, holes: set[tuple[int, int]]) -> None:
    side = min(side, tw if axis == "x" else th)
    stagger = Stagger(axis, index)  # type: ignore[arg-type]
    layout = HexLayout(tw, th, side, stagger, w, h)
    hexes = {stagger.to_hex(c, r): "clear" for r in range(h) for c in range(w) if (c, r) not in holes}
    whole = _hex_buckets(layout, hexes)
    lazy = HexBuckets(layout, hexes)
    mw, mh = layout.map_pixel_size
    for bx in range(-2, mw // BUCKET + 3):
        for by in range(-2, mh // BUCKET + 3):
            assert sorted(lazy.get((bx, by), ())) == sorted(whole.get((bx, by), [])), (bx, by)


def test_a_big_maps_buckets_are_not_worked_out_until_asked_for() -> None:
    stagger = Stagger("y", "odd")
    layout = HexLayout(64, 64, 32, stagger, 200, 200)
    lazy = HexBuckets(layout, {stagger.to_hex(c, r): "clear" for r in range(200) for c in range(200)})
    assert not lazy._done
    first = list(lazy.get((3, 4)))
    assert first and list(lazy._done) == [(3, 4)]
