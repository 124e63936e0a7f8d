"""The three kinds of error every engine raises (ARCHITECTURE: the engine contract).

An engine validates an action completely before it builds the next state, so whichever
of these is raised, the state the caller holds is unchanged.
"""

from __future__ import annotations


class RuleError(Exception):
    """Base class: something the engine refused."""


class BadInput(RuleError):
    """Malformed input: an unknown token kind, a spot or seat that does not exist."""


class IllegalAction(RuleError):
    """Well-formed, but the rules forbid it now. `ruling` names the rule it breaks."""

    def __init__(self, ruling: str, message: str) -> None:
        super().__init__(f"{ruling}: {message}")
        self.ruling = ruling


class Ambiguous(RuleError):
    """An observation that fits more than one action (raised by referees)."""
