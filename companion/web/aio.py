"""aiohttp's server (`web`), imported without the TLS contexts of its HTTP client.

`import aiohttp` imports its client too, and the client's connector builds two TLS client
contexts when it is imported, reading the system's whole store of certificate
authorities: about 40 ms of CPU on this project's x86 host, several times that on a
Pi, for a client the table never uses (the page is a plain HTTP server on the LAN). So
the page imports aiohttp through `web` here: while aiohttp is imported, a new TLS context
loads no certificate authorities, and right after, contexts load them again as usual.
The client's own default contexts are thus left without any: aiohttp's client must not
be used for HTTPS in this process (nothing does; anything that would gives it a context
of its own, `ssl.create_default_context()`). The service imports the page from its main
thread before its club link (the one user of TLS) starts, so no other context is being
made meanwhile.
"""

from __future__ import annotations

import ssl
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_LOADERS = ("load_default_certs", "set_default_verify_paths")


@contextmanager
def _no_certificate_authorities() -> Iterator[None]:
    """Meanwhile, a new `ssl.SSLContext` loads no certificate authorities."""
    cls = ssl.SSLContext
    own = {name: vars(cls)[name] for name in _LOADERS if name in vars(cls)}

    def skip(self: ssl.SSLContext, *args: Any) -> None:
        return None

    for name in _LOADERS:
        setattr(cls, name, skip)
    try:
        yield
    finally:
        for name in _LOADERS:
            if name in own:
                setattr(cls, name, own[name])
            else:
                delattr(cls, name)


if "aiohttp.connector" in sys.modules:  # imported already (a test's client): as it is
    from aiohttp import web as web
else:
    with _no_certificate_authorities():
        from aiohttp import web as web
from aiohttp.http_writer import StreamWriter as StreamWriter  # noqa: E402 (imported by now)

__all__ = ["StreamWriter", "web"]
