"""companion/config/unit_network.py: the addresses the installed service may talk with,
from the page and the club's broker together (install.sh writes them, `config check` says
them). The drop-ins themselves are checked with systemd-analyze in test_systemd.py."""

from __future__ import annotations

import pytest

from companion.config.club import ClubConfig
from companion.config.model import Config, WebConfig
from companion.config.unit_network import LOCAL_NETWORKS, unit_network

TABLE_NETWORK = ("localhost", "link-local", *LOCAL_NETWORKS)
OFF = WebConfig(enabled=False)
LAN = WebConfig()
PI = WebConfig(host="127.0.0.1")


def club(host: str, port: int = 8883, tls: bool = True) -> ClubConfig:
    return ClubConfig(host, port, "table-1", "table-1", "pw", None, tls)


@pytest.mark.parametrize(
    ("web", "broker", "allowed"),
    [
        (OFF, "203.0.113.9", ("203.0.113.9",)),  # a broker on the internet, by address
        (PI, "203.0.113.9", ("localhost", "203.0.113.9")),
        (LAN, "203.0.113.9", (*TABLE_NETWORK, "203.0.113.9")),
        (OFF, "localhost", ("localhost",)),  # a broker on the Pi itself
        (PI, "127.0.0.1", ("localhost",)),
        (OFF, "::1", ("localhost",)),
        (LAN, "192.168.1.20", TABLE_NETWORK),  # already the table's network
        (LAN, "169.254.7.1", TABLE_NETWORK),  # link-local
        (LAN, "fd12::20", TABLE_NETWORK),  # IPv6's unique local range
        (OFF, "fd12::20", ("fd12::20",)),
        (OFF, "club-pi.local", TABLE_NETWORK),  # a name: the table's network
        (PI, "club-pi.local", TABLE_NETWORK),
    ],
)
def test_the_broker_is_allowed_by_its_address_or_its_network(
    web: WebConfig, broker: str, allowed: tuple[str, ...]
) -> None:
    network = unit_network(Config(web=web, club=club(broker)))
    assert network.allow == allowed
    assert network.listen == (web.port if web.enabled else None)


def test_without_page_or_club_the_service_has_no_network() -> None:
    network = unit_network(Config(web=OFF))
    assert network.allow == () and network.listen is None
    assert network.summary() == "service network: none (no web page, no club)"


def test_the_summary_names_the_page_and_the_broker_with_their_ports() -> None:
    config = Config(web=WebConfig(host="127.0.0.1", port=8081), club=club("fd12::20", 1883, False))
    assert unit_network(config).summary() == (
        "service network: the page on 127.0.0.1:8081 (the Pi alone), "
        "the club broker [fd12::20]:1883 (outgoing, plain MQTT)"
    )
