"""Hex neighbourhood on the campaign map, in the map's own (column, row) coordinates."""

from __future__ import annotations

from game.core.hexgrid import Stagger, distance, neighbours
from game.systems.campaign.rules.models import CampaignMap, Coord


def stagger_of(m: CampaignMap) -> Stagger:
    return Stagger(m.stagger_axis, m.stagger_index)


def on_map(m: CampaignMap, c: Coord) -> bool:
    return 0 <= c[0] < m.width and 0 <= c[1] < m.height


def adjacent(m: CampaignMap, c: Coord) -> list[Coord]:
    """The neighbours of a hex that are on the map, in a fixed direction order."""
    st = stagger_of(m)
    out: list[Coord] = []
    for h in neighbours(st.to_hex(c[0], c[1])):
        o = st.to_offset(h)
        if on_map(m, o):
            out.append(o)
    return out


def is_adjacent(m: CampaignMap, a: Coord, b: Coord) -> bool:
    return hex_distance(m, a, b) == 1


def hex_distance(m: CampaignMap, a: Coord, b: Coord) -> int:
    st = stagger_of(m)
    return distance(st.to_hex(a[0], a[1]), st.to_hex(b[0], b[1]))


def arc(m: CampaignMap, at: Coord, route: Coord) -> list[Coord]:
    """The three-hex arc from `at` towards `route`: the route hex and the two hexes beside it."""
    side = [c for c in adjacent(m, at) if c != route and is_adjacent(m, c, route)]
    return [route, *side]


def beyond(m: CampaignMap, at: Coord, towards: Coord) -> Coord | None:
    """The hex one step further on from `towards` in the direction at -> towards (rout)."""
    st = stagger_of(m)
    a, b = st.to_hex(at[0], at[1]), st.to_hex(towards[0], towards[1])
    c = st.to_offset(b + (b - a))
    return c if on_map(m, c) else None
