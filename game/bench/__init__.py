"""The benchmark harness behind `python -m game bench`.

Each figure is measured as a ratio of two timings taken in the same run (these machines are
noisy) plus the absolute medians. Sections: frame, reach, odds, saves, start-up. The 100 x 100
benchmark battle is generated into a temporary directory (game.systems.tactical.bench.bigmap).
"""
