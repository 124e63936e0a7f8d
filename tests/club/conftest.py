"""A real Mosquitto for the club tests (Debian's mosquitto), on a free loopback port,
configured as docs/club.md says (its listener file, ACL and certificates, run as the
document gives them: TLS, client ids bound to user names, persistence at every change);
and simulated tables publishing to it.

Without mosquitto the tests are skipped, except in CI (COMPANION_CI, set by .ci/run,
which installs it): there they fail.
"""

from __future__ import annotations

import atexit
import functools
import getpass
import queue
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from companion import games
from companion.club.board import Board
from companion.club.link import open_link
from companion.club.reader import ClubReader
from companion.config.club import ClubConfig
from companion.config.model import DisplayConfig, WebConfig
from companion.devices.display import Display
from companion.journal import Setup
from companion.notify import Notifier
from companion.run.items import Scripted
from companion.run.loop import Service
from companion.run.web_port import WebPort
from companion.session import Session
from tests.tools import required

TABLES = ("table-a", "table-b", "table-c")
CLUB = "club"
DOC = Path(__file__).resolve().parents[2] / "docs" / "club.md"


def doc_block(holding: str) -> str:
    """The fenced block of docs/club.md that holds ``holding`` (the config to paste)."""
    blocks = re.findall(r"```[a-z]*\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    [block] = [b for b in blocks if holding in b]
    return "\n".join(line.strip() for line in block.splitlines()) + "\n"


def password(user: str) -> str:
    return f"pw-{user}-secret"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def certificates(folder: Path) -> tuple[Path, Path, Path]:
    """The club's CA and the broker's certificate and key, made in ``folder`` by the
    commands of docs/club.md for the address the tests use (127.0.0.1, as paho checks it)
    instead of club-pi.local: (club-ca.crt, club-pi.crt, club-pi.key)."""
    openssl = required("openssl", "apt-get install openssl")
    script = (
        doc_block("openssl x509 -req")
        .replace("cd /etc/mosquitto/certs", f"cd {folder}")
        .replace("/root/", f"{folder}/")
        .replace("DNS:club-pi.local", "IP:127.0.0.1")
        .replace("chown mosquitto:", f"chown {getpass.getuser()}:")  # not root here
    )
    path = f"{Path(openssl).parent}:/usr/bin:/bin"
    subprocess.run(["bash", "-euc", script], check=True, capture_output=True, env={"PATH": path})
    return folder / "club-ca.crt", folder / "club-pi.crt", folder / "club-pi.key"


@functools.cache
def _club_certificates() -> tuple[Path, Path, Path]:
    """One set of `certificates` for every broker of this process (RSA keys take a second
    or two to make): in a folder removed when the process ends."""
    folder = Path(tempfile.mkdtemp(prefix="club-certs-"))
    atexit.register(shutil.rmtree, folder, True)
    return certificates(folder)


PLAIN = "replace the four lines from `listener 8883` to `cafile` by `listener 1883`"
"""How docs/club.md turns its listener into the plain one of a closed network."""


def club_conf(plain: bool = False) -> str:
    """The listener file of docs/club.md (/etc/mosquitto/conf.d/club.conf); ``plain``: as
    the document says to change it for a closed network."""
    conf = doc_block("use_username_as_clientid")
    if not plain:
        return conf
    assert PLAIN in " ".join(DOC.read_text(encoding="utf-8").split()), "docs/club.md changed"
    lines = conf.splitlines()
    first = lines.index("listener 8883")
    last = next(i for i, line in enumerate(lines) if line.startswith("cafile "))
    assert last == first + 3
    return "\n".join([*lines[:first], "listener 1883", *lines[last + 1 :]]) + "\n"


class Mosquitto:
    """Debian's broker configured as docs/club.md says (TLS with the club's CA, copied to
    ``folder``; ``plain``: its closed network's listener instead), on a free loopback
    port; `kill` (SIGKILL) and `start` again, `forget` what it saved on disk."""

    def __init__(
        self,
        binary: str,
        passwd: str,
        folder: Path,
        tables: tuple[str, ...] = TABLES,
        plain: bool = False,
    ) -> None:
        self.binary = binary
        self.folder = folder
        self.port = free_port()
        users = folder / "passwd"
        users.write_text("".join(f"{u}:{password(u)}\n" for u in (*tables, CLUB)))
        subprocess.run([passwd, "-U", str(users)], check=True, capture_output=True)  # hashed
        (folder / "acl").write_text(doc_block("pattern write"))
        self.tls_ca = None
        if not plain:
            for made in _club_certificates():
                shutil.copy(made, folder)
            self.tls_ca = folder / "club-ca.crt"
        conf = club_conf(plain)
        conf = conf.replace(f"listener {1883 if plain else 8883}",
                            f"listener {self.port} 127.0.0.1")  # fmt: skip
        conf = conf.replace("/etc/mosquitto/club.passwd", str(users))
        conf = conf.replace("/etc/mosquitto/club.acl", str(folder / "acl"))
        conf = conf.replace("/etc/mosquitto/certs/", f"{folder}/")
        (folder / "conf.d").mkdir()
        (folder / "conf.d" / "club.conf").write_text(conf)
        self.conf = folder / "mosquitto.conf"
        self.conf.write_text(
            # Debian's /etc/mosquitto/mosquitto.conf, in this folder, logging to stderr.
            f"persistence_location {folder}/\nlog_dest stderr\ninclude_dir {folder / 'conf.d'}\n"
            # As root, mosquitto would become the user mosquitto, who cannot read here.
            f"user {getpass.getuser()}\n"
        )
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with open(self.folder / "mosquitto.log", "ab") as log:  # the broker keeps its own
            self.process = subprocess.Popen([self.binary, "-c", str(self.conf)],
                                            stdout=log, stderr=log)  # fmt: skip
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            assert self.process.poll() is None, (self.folder / "mosquitto.log").read_text()
            time.sleep(0.02)
        raise AssertionError("mosquitto did not listen")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(5)
        self.process = None

    def forget(self) -> None:
        """Lose what the broker saved (a broker whose disk was wiped): only when killed."""
        assert self.process is None
        (self.folder / "mosquitto.db").unlink(missing_ok=True)

    def table_config(self, table: str) -> ClubConfig:
        """``table``'s ``[club]`` for this broker, as `companion.config` reads it."""
        return ClubConfig("127.0.0.1", self.port, table, table, password(table), self.tls_ca,
                          self.tls_ca is not None)  # fmt: skip

    def club_toml(self, table: str) -> str:
        """``table``'s ``[club]`` section for this broker, as docs/club.md writes it."""
        text = f'[club]\nbroker = "127.0.0.1:{self.port}"\ntable = "{table}"\n'
        text += f'password = "{password(table)}"\n'
        return text + (f'tls_ca = "{self.tls_ca}"\n' if self.tls_ca else "tls = false\n")

    def client(self, user: str, client_id: str, clean_session: bool = True) -> mqtt.Client:
        """A paho client of ``user``'s for this broker (over its TLS), not connected yet."""
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                             clean_session=clean_session)  # fmt: skip
        client.username_pw_set(user, password(user))
        if self.tls_ca is not None:
            client.tls_set(ca_certs=str(self.tls_ca))
        return client


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    binary = required("/usr/sbin/mosquitto", "apt-get install mosquitto")
    passwd = required("mosquitto_passwd", "apt-get install mosquitto")
    folder = tmp_path / "broker"
    folder.mkdir()
    broker = Mosquitto(binary, passwd, folder)
    broker.start()
    yield broker
    broker.kill()


def wait_for(what: Callable[[], Any], seconds: float = 15.0) -> Any:
    """What ``what`` returns once it is truthy; fails after ``seconds`` (a bound, not a
    speed goal: the broker and the club take milliseconds)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = what()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"never came: {what}")


class Club:
    """`companion club`'s reader and board, with its archive."""

    def __init__(self, broker: Mosquitto, folder: Path) -> None:
        self.board = Board()
        folder.mkdir(exist_ok=True)
        self.archive = folder / "night.jsonl"
        self.reader = ClubReader(self.board, self.archive, "127.0.0.1", broker.port, CLUB,
                                 password(CLUB), broker.tls_ca, retry=1)  # fmt: skip
        self.reader.start()
        assert self.reader.connected.wait(10)

    def close(self) -> None:
        self.reader.stop()


@pytest.fixture
def club(broker: Mosquitto, tmp_path: Path) -> Iterator[Club]:
    c = Club(broker, tmp_path)
    yield c
    c.close()


class SimTable:
    """A simulated table (`Service` on a journal, inputs scripted from a simulated game)
    publishing to the broker through its `TableLink`, in threads, until `close`."""

    def __init__(self, name: str, game: str, broker: Mosquitto, folder: Path, seed: int = 1,
                 lang: str = "fr", page: bool = False, tls_ca: Path | None = None,
                 tls: bool | None = None, page_host: str = "127.0.0.1") -> None:  # fmt: skip
        """``page``: with its web page too (on ``page_host``, a port of its own), whose
        snapshots the link sends, as `companion run` has them. ``tls_ca``: the CA it trusts
        (default: the broker's, when it speaks TLS); ``tls``: whether it speaks TLS
        (default: as the broker does)."""
        self.name = name
        self.folder = folder
        folder.mkdir(exist_ok=True)
        played = games.get(game)
        self.setup: Setup = played.simulated_setup(played.default_seats, seed, language=lang)
        self.inputs = list(played.simulate(self.setup).inputs)
        self.config = ClubConfig("127.0.0.1", broker.port, name, name, password(name),
                                 tls_ca or broker.tls_ca,
                                 broker.tls_ca is not None if tls is None else tls)  # fmt: skip
        self.inbox: queue.Queue[Any] = queue.Queue()
        self.session = Session.start(folder / "game.jsonl", self.setup)
        self.display = Display(DisplayConfig(driver="dummy"), lang)
        self.display.open()
        self.web: WebPort | None = None
        if page:
            self.web = WebPort(WebConfig(host=page_host, port=0), folder,
                               self.session.referee, self.inbox)  # fmt: skip
            self.web.start()
        self.link = open_link(self.config, folder, self.session.referee, self.web, retry=1)
        self.service = Service(self.session, self.inbox, self.display, Notifier({}),
                               script_clock=True, club=self.link, web=self.web)  # fmt: skip
        self.thread = threading.Thread(target=self.service.run, daemon=True)
        self.thread.start()
        self.fed = 0

    def play(self, share: float = 1.0) -> None:
        """Feed the simulated game up to ``share`` of its inputs."""
        upto = round(len(self.inputs) * share)
        for record in self.inputs[self.fed : upto]:
            self.inbox.put(Scripted(record))
        self.fed = max(self.fed, upto)

    def close(self) -> None:
        self.service.stop()
        self.thread.join(5)
        self.link.stop()
        if self.web is not None:
            self.web.stop()
        self.session.close()
        self.display.close()


@pytest.fixture
def tables(tmp_path: Path) -> Iterator[list[SimTable]]:
    made: list[SimTable] = []
    yield made
    for table in made:
        table.close()


def outbox(folder: Path) -> list[str]:
    box = folder / "club-outbox"
    return sorted(p.name for p in box.iterdir()) if box.is_dir() else []
