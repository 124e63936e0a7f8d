"""The engine contract's first home: it is `companion.contract.engine`, below everything;
the games' rules written before it moved import it from here."""

from companion.contract.engine import AnyEngine, Engine, Jsonable

__all__ = ["AnyEngine", "Engine", "Jsonable"]
