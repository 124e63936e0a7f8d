"""The one error type of the web port: a refused request, with its HTTP status."""

from __future__ import annotations


class Refused(Exception):
    """A request the table refuses; the message is the sentence the page shows."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
