"""Undo that never unsays a public fact (docs/table.md, "Undo"), for any game's referee.

`back` takes back the last step that revealed nothing. A step that made a public fact (a
verdict, a reveal, a closed window, a scored line, a manche result) seals everything
before it: what the table has seen stays seen.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from companion.screens.model import Refusal

S = TypeVar("S")


class UndoHistory(Generic[S]):
    """The states before each undoable step since the last public fact."""

    def __init__(self) -> None:
        self.steps: list[tuple[S, str]] = []
        self.sealed = False
        """A public fact was made: there is something undo may never take back."""

    def record(self, before: S, step: str, public: bool) -> None:
        """A step was taken from `before`; `public`: it made a public fact."""
        if public:
            self.steps.clear()
            self.sealed = True
        else:
            self.steps.append((before, step))

    def take_back(self) -> tuple[S, str] | Refusal:
        """The state before the last undoable step and its name, or why there is none."""
        if not self.steps:
            return Refusal.PUBLIC_FACT if self.sealed else Refusal.NOTHING_TO_UNDO
        return self.steps.pop()

    def last(self) -> tuple[S, str] | None:
        """The step `take_back` would take back now (its state before, its name), or None."""
        return self.steps[-1] if self.steps else None

    def __len__(self) -> int:
        return len(self.steps)
