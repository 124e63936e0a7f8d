"""Tabletop companion: a Raspberry Pi that referees physical game tables, each game a package
of `companion.games`."""

__version__ = "0.1.0"
