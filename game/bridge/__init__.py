"""One campaign, three scales (docs/scales.md): a campaign battle translated into a tactical
scenario or a mass battle, and the battle's end translated back into a campaign result.

Pure: the modules here take states and rules data and return plain data; reading and writing
files is game/bridge/files.py's job.
"""
