"""The documents that help texts and messages point to, named once.

A user who reads a help text or an error is sent to one of these files of the repository;
``tests/test_docs.py`` checks that every ``docs/...`` path the code names exists.
"""

from __future__ import annotations

CONFIG_DOC = "docs/companion.example.toml"
"""Where every key of the configuration is documented (help texts point there)."""
JOURNAL_DOC = "docs/journal.md"
"""The journal and scenario format (what replay, play and run --sim-input read)."""
TABLE_DOC = "docs/table.md"
"""Each game's table protocol: what hands and buttons do on a real table."""
RULINGS_DOC = "docs/rulings.md"
"""The rulings the code cites, each game's under its own prefix."""
LAB_DOC = "docs/lab.md"
"""The designer's lab: the variants file, the figures, `lab`, `report` and `selfplay`."""
WEB_DOC = "docs/web.md"
"""The table's web page: watching, pairing, the virtual table (`run --virtual`)."""
