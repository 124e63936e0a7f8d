"""What systemd/install.sh must know of a configuration, as ``KEY=VALUE`` lines.

The install script installs the packages the configured back ends need, binds the Pico's
udev rule when the readers are on a Pico, opens the unit's network to what the web page and
the club's broker need (`unit_network`), its sound devices when the table speaks through
espeak-ng, and checks that the unit's data directory is the config's and that it can read
the club's CA. It asks this module rather than grepping TOML, so it reads the file exactly
as the service will::

    PYTHONPATH=SRC python3 -S -P -m companion.config.install_facts --config FILE

It runs from the source tree with the system's Python before anything is installed, so
it (and ``companion.config``) must import nothing outside the standard library.
Exit status: 0 with the facts on stdout, 1 with every problem of the file on stderr.
"""

from __future__ import annotations

import argparse
import sys

from companion.cli_words import speaking
from companion.config import load_config
from companion.config.model import Config, ConfigError
from companion.config.unit_network import unit_network


def facts(config: Config) -> dict[str, str]:
    """The facts of a valid configuration; every value is one line, without ``=``."""
    network = unit_network(config)
    club = config.club
    return {
        "readers": config.readers.kind,
        "pico_port": config.readers.port,
        "web": "on" if config.web.enabled else "off",
        # IPAddressAllow= entries (none: no network), the port it listens on (none: empty)
        "network_allow": " ".join(network.allow),
        "network_listen": "" if network.listen is None else str(network.listen),
        "network": network.summary(),
        "club_tls_ca": str(club.tls_ca) if club is not None and club.tls_ca else "",
        "data_dir": str(config.data_dir),
        # espeak-ng: its package, the audio group and the sound devices for the unit
        "sound": config.sound.backend,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m companion.config.install_facts",
        description="Print what the install script needs to know of a configuration.",
    )
    parser.add_argument("--config", required=True, help="the configuration file to read")
    args = parser.parse_args(argv)
    with speaking("en"):  # the install script's language; it reads the facts' words
        try:
            config = load_config(args.config)
        except ConfigError as exc:
            for line in exc.problems:
                print(f"error: {line}", file=sys.stderr)
            return 1
        for key, value in facts(config).items():
            print(f"{key}={value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
