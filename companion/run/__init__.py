"""`companion run`: the service of a real table (and its simulated twin on a desktop).

One job a module; ``companion.service`` is the entry module systemd runs.

- ``arguments``: the command line of `companion run`.
- ``startup``: from the arguments to the exit status: check, start, play, stop.
- ``devices``: the threads that feed the queue (readers, controls, script, clock).
- ``power_on_menu``: the menu on the OLED before a game starts.
- ``game_start``: resume the journal's game or set up a new one.
- ``journal_file``: the data directory's journal: live, replayed, archived.
- ``loop``: the referee loop (`Service`): queue items in, journal, referee, OLED out.
- ``items``: what the service's own threads put on the queue.
- ``clock``: the clock thread's ticks.
- ``sim_input``: the simulated table's journal lines.
"""
