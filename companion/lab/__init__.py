"""The designer's lab: what the rules do, from many bot games or from real ones.

- `model`: the contract a game's lab module fulfils (`LabGame`, `GameRecord`, `Variant`).
- `variants`: the variants file of `companion lab`.
- `runner`: the games on every core, in a process pool, equal to a serial run.
- `summary` and `stats`: records to figures with 95 % intervals.
- `report` and `plots`: the terminal summary, report.html, figures.json and figures.csv.
- `journals`: `companion report`, the same figures from refereed games, with time per turn
  and faults; `against`: people against bots (`report --against`), told with a permutation
  test per figure and a false-discovery correction.
- `ladder` (how much skill decides) and `restricted` (what an element is worth): a lab
  file's studies of the thinking bots (`mcts`, `thinking`).
- `cli`: the `lab`, `report` and `selfplay` commands.
Each game's part of the lab (its `LabGame`, and the fast engine path that plays it) is in
  the game's own package (`companion/games/<game>/lab.py`, `fast/`), reached through the
  registry; each fast path is held to its engine step by step by one contract test.
"""
