"""What the installed service's network lets through, derived from the whole configuration.

The unit (systemd/companion.service) has no network of its own; systemd/install.sh opens
what the configuration needs in a drop-in, from `unit_network`, and `companion config
check` says the same in one line (`summary`). Two users of the network:

- the web page ([web]): the service listens on its port, for the Pi alone (a loopback
  ``host``) or for the table's network;
- the club's broker ([club]): the service connects out to it. ``IPAddressAllow=`` holds
  addresses, never names: a broker given by its address is allowed alone; one given by
  name (``club-pi.local``, whose address a DHCP server may change any evening) is allowed
  as the table's network, the private and link-local addresses, where such a name is
  looked up too (the router's name server, or mDNS through avahi's local socket).

Standard library only: install_facts runs this with the system's Python before anything
is installed.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from companion.config.model import Config
from companion.config.words import say

THE_PI = "localhost"
"""systemd's name for the loopback addresses (127.0.0.0/8, ::1)."""
LINK_LOCAL = "link-local"
"""systemd's name for 169.254.0.0/16 and fe80::/64."""
LOCAL_NETWORKS = ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7")
"""The private ranges of a table's network: RFC 1918's, the shared range of phone hotspots
and carrier networks, IPv6's unique local one."""
TABLE_NETWORK = (THE_PI, LINK_LOCAL, *LOCAL_NETWORKS)

_COVERED = {
    THE_PI: ("127.0.0.0/8", "::1/128"),
    LINK_LOCAL: ("169.254.0.0/16", "fe80::/64"),
    **{net: (net,) for net in LOCAL_NETWORKS},
}


@dataclass(frozen=True, slots=True)
class UnitNetwork:
    """The service's network: nothing (``allow`` empty), or the addresses it may talk
    with and the one port it may listen on (None: none)."""

    allow: tuple[str, ...] = ()
    """``IPAddressAllow=`` entries: addresses, prefixes, ``localhost``, ``link-local``."""
    listen: int | None = None
    """The page's TCP port (``SocketBindAllow=``); None: the service listens on none."""
    uses: tuple[str, ...] = ()
    """What needs it, for people: "the page on 0.0.0.0:8080", "the club broker ..."."""

    def summary(self) -> str:
        """One line for `companion config check`: what the installed unit will allow."""
        if not self.uses:
            return say("sum.no_network")
        return say("sum.network", uses=", ".join(self.uses))


def unit_network(config: Config) -> UnitNetwork:
    """The network the service needs for ``config``'s page and club."""
    allow: list[str] = []
    uses: list[str] = []
    listen = None
    web, club = config.web, config.club
    if web.enabled:
        listen = web.port
        loopback = ipaddress.ip_address(web.host).is_loopback
        _add(allow, (THE_PI,) if loopback else TABLE_NETWORK)
        who = say("sum.pi_alone" if loopback else "sum.pi_network")
        uses.append(say("sum.page", address=_host_port(web.host, web.port), who=who))
    if club is not None:
        broker = _host_port(club.host, club.port)
        tls = say("sum.tls" if club.tls else "sum.plain_mqtt")
        address = _address(club.host)
        if address is not None:
            _add(allow, (THE_PI if address.is_loopback else str(address),))
            uses.append(say("sum.broker", broker=broker, tls=tls))
        else:
            _add(allow, TABLE_NETWORK)
            uses.append(say("sum.broker_name", broker=broker, tls=tls))
    return UnitNetwork(tuple(allow), listen, tuple(uses))


def _address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address ``host`` is, or names for sure (``localhost``); None: a name."""
    if host.lower().rstrip(".") == "localhost":
        return ipaddress.ip_address("127.0.0.1")
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def _add(allow: list[str], entries: tuple[str, ...]) -> None:
    """Add each of ``entries`` to ``allow`` unless an entry there already covers it."""
    for entry in entries:
        if not any(_covers(have, entry) for have in allow):
            allow.append(entry)


def _covers(have: str, entry: str) -> bool:
    if have == entry:
        return True
    if entry in _COVERED:
        return False
    address = ipaddress.ip_address(entry)
    nets = _COVERED.get(have, (have,))
    return any(address in ipaddress.ip_network(net) for net in nets)


def _host_port(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
