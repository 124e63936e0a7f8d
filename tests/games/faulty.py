"""Faulty: tally (`tests/games/tally/`) with a referee that raises on one press, `boom`.

No referee of the companion should raise on anything a table, a phone or a file can send
(`tests/referee/test_never_raises.py`). This one does on purpose, after changing its
scores, so the tests of a journal whose referee could not apply a line (docs/journal.md,
"Checksums and damage") do not depend on a bug existing: the line is named, never
quoted; the exception's text (a tag's UID here) reaches no log, note or message; and the
game resumed is the lines before it on a new referee, not the half-changed one. Set
`COMPANION_GAMES=tests.games.faulty` to play it.
"""

from __future__ import annotations

import dataclasses

from companion.journal import PressInput
from tests.games.tally import TALLY, TallyReferee

BOOM = "boom"
"""The control the referee raises on."""
SECRET = "04C0FFEE5EC2E7"
"""What the exception says: a UID, which no log, note or message may show."""


class FaultyReferee(TallyReferee):
    def press(self, press: PressInput) -> None:
        if press.control == BOOM:
            dropped = list(self.state.dropped)
            dropped[self.state.turn] += 5  # half-changed when it raises
            self.state = dataclasses.replace(self.state, dropped=tuple(dropped))
            raise KeyError(SECRET)
        super().press(press)


FAULTY = dataclasses.replace(TALLY, name="faulty", title="Faulty", referee=FaultyReferee, lab=None)
