"""Tabletop companion: a Raspberry Pi that referees PassPass-family game tables."""

__version__ = "0.1.0"
