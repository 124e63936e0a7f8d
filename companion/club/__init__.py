"""A club night (docs/club.md): many tables, one MQTT broker, one board of results.

A table whose config has a ``[club]`` section publishes through `link` (its public
snapshots, its availability, its games and their results), keeping what must survive a
cut in `outbox`; `companion club` (`command`) reads the
broker into a `board.Board` and serves it (`page`). `topics` is what both sides agree on.
paho-mqtt is imported only by `link` and `reader`, so a table without ``[club]`` never
loads it.
"""
