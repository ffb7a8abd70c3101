"""The bridge's part of the window: the GM's Battle panel on the campaign map, which fights a
campaign battle out at the tactical or the mass scale and brings its result back (fight.py).
The table hands it to the campaign's client (game/bridge/plugin.py campaign_client)."""
