"""``companion doctor``: is the reader hardware healthy? Finds the Pico and says.

It finds the Pico by USB vendor/product id (or takes ``--port``), connects over protocol 1,
shows the firmware version and reader count (a Pico that was already running said HELLO
long ago, so by default it is soft-restarted with Ctrl-C, Ctrl-D to say it again), checks
that it answers PING, then watches the readers for a few seconds, printing each reader's
tags live. It asks the firmware for its own scan timings (``CONF stats=1``) and prints the
cycle and reader-visit min/median/max next to the modelled cycle of the same table
(``scan_model``), saying plainly when the table is slower than its model; a firmware that
predates the timings says so too. Timings never change the verdict: a slow table still
works. The exit status is 0 when every configured reader reported and none is faulty,
1 otherwise (no Pico, a reader missing, faulty or silent, no PONG).
"""

from __future__ import annotations

import argparse
import queue
import sys
import time
from collections.abc import Callable, Mapping
from typing import TextIO

from companion.cli_words import said
from companion.config import load_config
from companion.config.data_dir import find_data_dir, locate_data_dir
from companion.config.model import Config, ConfigError, ReadersConfig
from companion.devices import protocol, scan_model
from companion.devices.readers import (
    ButtonEvent,
    LinkStatus,
    ReaderFault,
    ReaderOk,
    Reported,
    SpotContents,
)
from companion.devices.serial_link import SerialLink, find_pico, no_pico
from companion.devices.settle import (
    SETTLE_CYCLES,
    SETTLE_MAX_US,
    SETTLE_STEP_US,
    SettleSearch,
    reader_name,
)
from companion.devices.words import crowded_buses
from companion.devices.words import doctor_says as told
from companion.doc_paths import CONFIG_DOC
from companion.options import (
    add_config_option,
    add_data_dir_option,
    fail,
    path_text,
    positive_seconds,
    whole_number,
)

CTRL_C_CTRL_D = b"\r\x03\x03\x04"  # stop main.py, then soft-reboot from the REPL
FAULT_HINTS = ("stalled", "crashed")
"""The firmware's fault codes other than ``absent`` that the doctor explains
(firmware/cores.py); any other gets the wiring hint."""
MAX_READERS = 19
"""The pad and up to 18 spots: as many readers as the firmware scans (firmware/README.md)."""


def fault_hint(code: str) -> str:
    """What a reader's fault code means, for the one who fixes it."""
    partner = protocol.across_of(code)
    if partner is not None:
        return told("across", other=reader_name(partner))
    return told(code if code in FAULT_HINTS else "hint")


def _answered_repl(link: SerialLink) -> bool:
    """The Pico answered the REPL command: OK (it left its loop) or BAD (an older firmware)."""
    return any(isinstance(r, protocol.Ok | protocol.Bad) for r in link.replies)


def run_doctor(
    port: str | None = None,
    *,
    seconds: float = 3.0,
    readers: int | None = None,
    restart: bool = True,
    connect_timeout: float = 4.0,
    out: TextIO = sys.stdout,
    find: Callable[[], list[str]] = find_pico,
    make_link: Callable[[str], SerialLink] = SerialLink,
    tags: Mapping[str, str] | None = None,
    settle_us: int | None = None,
    find_settle: int = 0,
    step_timeout: float = 60.0,
) -> int:
    """Diagnose the Pico link and its readers; return the exit status (0 healthy, 1 not).

    ``readers`` is how many readers the table is configured with (default: the Pico's own
    count); a configured reader the Pico does not have, or that stays silent or faulty
    through the watch, makes the result 1. ``tags`` (the enrolled registry, UID -> kind)
    names each tag seen, so a token that was never enrolled stands out. ``connect_timeout``:
    the seconds the Pico gets for each answer it owes (the connection, its HELLO, the PONG,
    the first timings after a watch shorter than its heartbeat), waited for, not slept:
    a slow Pico (an emulated one) is given the time it needs. ``settle_us``:
    the tags' power-up wait the Pico is given for the watch (None: the firmware's own).
    ``find_settle``: after the watch, search for the lowest power-up wait at which every
    reader holding a tag reads it in each of that many scan cycles (0: no search; each
    wait tried gives up after ``step_timeout`` seconds), and recommend one.
    """

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    if port is None:
        found = find()
        if not found:
            say(no_pico())
            return 1
        if len(found) > 1:
            say(told("several", found=", ".join(found), port=found[0]))
        port = found[0]
    say(told("pico", port=port))
    link = make_link(port)
    if settle_us is not None:
        link.settings["settle_us"] = settle_us  # sent at each connection, restart included
        say(told("settle", us=settle_us))
    inbox: queue.Queue[Reported] = queue.Queue()
    link.start(inbox)
    try:
        named = _namer(tags)
        seen: dict[int, frozenset[str]] = {}
        status = _diagnose(
            link, inbox, say, seconds, readers, restart, connect_timeout, named, seen
        )
        if find_settle and link.connected:
            search = SettleSearch(link, inbox, say, find_settle, step_timeout, seen)
            if not search.run():
                status = 1
            else:
                say(told("put_settle", us=search.recommended))
        return status
    finally:
        link.stop()


def _diagnose(
    link: SerialLink,
    inbox: queue.Queue[Reported],
    say: Callable[[str], None],
    seconds: float,
    readers: int | None,
    restart: bool,
    connect_timeout: float,
    named: Callable[[frozenset[str]], str] = lambda uids: " ".join(sorted(uids)),
    contents: dict[int, frozenset[str]] | None = None,
) -> int:
    """The diagnosis; ``contents`` (reader -> tags) is filled with what the readers held."""
    contents = {} if contents is None else contents
    faults: dict[int, str] = {}
    status: LinkStatus | None = None

    def take(until: float, done: Callable[[], bool], live: bool = False) -> None:
        nonlocal status
        while not done():
            left = until - time.monotonic()
            if left <= 0:
                return
            try:
                obs = inbox.get(timeout=min(left, 0.05))
            except queue.Empty:
                continue
            if isinstance(obs, LinkStatus):
                status = obs
                if not obs.connected:
                    say(told("link", reason=obs.reason))
            elif isinstance(obs, SpotContents):
                contents[obs.reader] = obs.uids
                if live:
                    shown = named(obs.uids) or told("empty")
                    say(told("live", reader=reader_name(obs.reader), tags=shown))
            elif isinstance(obs, ReaderFault):
                faults[obs.reader] = obs.code
                if live:
                    say(told("live_fault", reader=reader_name(obs.reader), code=obs.code))
            elif isinstance(obs, ReaderOk):
                faults.pop(obs.reader, None)
            elif isinstance(obs, ButtonEvent) and live:
                say(told("button", name=obs.name, state=told("down" if obs.down else "up")))

    take(time.monotonic() + connect_timeout, lambda: link.connected)
    if not link.connected:
        reason = status.reason if status else told("no_answer")
        hint = ""
        if "lock" in reason or "busy" in reason:
            hint = told("busy")
        say(told("cannot_talk", reason=reason, hint=hint))
        return 1
    if link.hello is None and restart:
        say(told("restarting"))
        # The firmware leaves its loop only on a framed REPL command (a stray Ctrl-C is
        # garbage to it); an older firmware answers BAD and leaves on the Ctrl-C itself.
        link.send(protocol.repl())
        take(time.monotonic() + connect_timeout, lambda: _answered_repl(link))
        link.send_raw(CTRL_C_CTRL_D)
        take(time.monotonic() + connect_timeout, lambda: link.hello is not None)
    hello = link.hello
    count = hello.readers if hello else len(contents) + len(faults)
    if hello is None and status is not None and status.readers:
        count = status.readers  # the snapshot's size: its readers may not all be read yet
    if hello:
        say(told("firmware", firmware=hello.firmware, proto=hello.proto, readers=hello.readers))
    else:
        say(told("no_hello", count=count))
    before = link.stats
    link.send(protocol.ping())
    sent = time.monotonic()
    take(sent + connect_timeout, lambda: any(isinstance(r, protocol.Pong) for r in link.replies))
    pong = any(isinstance(r, protocol.Pong) for r in link.replies)
    say(told("pong", ms=(time.monotonic() - sent) * 1000) if pong else told("no_pong"))
    link.send(protocol.conf("stats", 1))  # a T frame after each snapshot from now on

    say(told("watching", seconds=seconds))
    watched = time.monotonic()
    take(watched + seconds, lambda: False, live=True)
    # The timings follow a snapshot, one a heartbeat: a short watch waits for the first.
    take(
        time.monotonic() + connect_timeout,
        lambda: link.timing is not None or _stats_refused(link) or not link.connected,
        live=True,
    )
    watched = time.monotonic() - watched

    expected = readers if readers is not None else count
    healthy = pong and link.connected
    say(told("summary"))
    for reader in range(expected):
        if reader >= count:
            say(told("missing", reader=reader_name(reader), count=count))
            healthy = False
        elif reader in faults:
            code = faults[reader]
            say(told("fault", reader=reader_name(reader), code=code, hint=fault_hint(code)))
            healthy = False
        elif reader not in contents:
            say(told("silent", reader=reader_name(reader), seconds=seconds))
            healthy = False
        else:
            tags = contents.get(reader, frozenset())
            say(told("ok", reader=reader_name(reader), n=len(tags), tags=named(tags)).rstrip())
    tags_seen = {
        reader: len(contents.get(reader, frozenset()))
        for reader in range(count)
        if reader not in faults
    }
    settle_us = link.settings.get("settle_us", scan_model.BENCH_SETTLE_US)
    for line in timing_lines(link.timing, tags_seen, _stats_refused(link), watched, settle_us):
        say(line)
    if any(isinstance(r, protocol.Bad) and r.reason == "conf settle_us" for r in link.replies):
        say(told("settle_refused"))
        healthy = False
    after = link.stats
    bad = (
        after.bad_crc - before.bad_crc,
        after.malformed - before.malformed,
        after.gaps - before.gaps,
    )
    frames = told("frames", frames=after.frames - before.frames, crc=bad[0], malformed=bad[1],
                  gaps=bad[2])  # fmt: skip
    say(frames + (told("noisy") if any(bad) else ""))
    if not link.connected:
        say(told("lost"))
    elif seconds >= 1.5 and after.frames - before.frames <= 1:  # PONG aside, nothing came
        say(told("no_snapshot", seconds=seconds))
        healthy = False
    say(told("healthy" if healthy else "unhealthy"))
    return 0 if healthy else 1


def _stats_refused(link: SerialLink) -> bool:
    return any(isinstance(r, protocol.Bad) and r.reason == "conf stats" for r in link.replies)


def timing_lines(
    timing: protocol.Timing | None,
    tags_per_reader: Mapping[int, int],
    refused: bool,
    seconds: float,
    settle_us: int = scan_model.BENCH_SETTLE_US,
) -> list[str]:
    """The doctor's lines on the firmware's own timings against the model of this table
    (``tags_per_reader``: reader -> the tags seen on it, for each scanned reader;
    ``settle_us``: the Pico's, which the model charges every visit)."""
    if timing is None:
        return [told("timings_refused") if refused else told("timings_none", seconds=seconds)]
    low, median, high = (us / 1000 for us in timing.cycle_us)
    lines = [told("cycle", low=low, median=median, high=high, cycles=timing.cycles)]
    if timing.visit_us is None:
        lines.append(told("visit_untimed"))
    else:
        v_low, v_median, v_high = (us / 1000 for us in timing.visit_us)
        lines.append(told("visit", low=v_low, median=v_median, high=v_high, visits=timing.visits))
    tags = list(tags_per_reader.values())
    split = timing.buses
    buses = None
    if split is not None:  # a reader past the map's end (none should be) counts on bus 0
        buses = [split[r] if r < len(split) else 0 for r in tags_per_reader]
    model = scan_model.cycle_ms(tags, buses=buses, settle_us=settle_us)
    lines.append(told("model", model=model, readers=len(tags), tags=sum(tags),
                      buses=told("one_bus" if buses is None else "two_buses")))  # fmt: skip
    ratio = median / model if model else 0.0
    if scan_model.slower_than_model(median, model):
        lines.append(told("slower", median=median, ratio=ratio, model=model,
                          factor=scan_model.SLOWER_FACTOR))  # fmt: skip
    else:
        lines.append(told("within", ratio=ratio))
    lines += crowded_buses(buses or [0] * len(tags), settle_us)
    scale = scan_model.implied_scale(median, tags, buses, settle_us)
    if scale is None:
        air = scan_model.cycle_ms(tags, interpreter=False, buses=buses, settle_us=settle_us)
        lines.append(told("no_interpreter", air=air, settle=settle_us))
    else:
        cached = scan_model.cycle_ms(
            tags, buses=buses, settle_us=settle_us, cost=scan_model.RP2040_XIP_US
        )
        bound = scan_model.implied_scale(cached, tags, buses, settle_us) or 1.0
        lines.append(told("interpreter", scale=scale, bound=bound))
    return lines


def _namer(tags: Mapping[str, str] | None) -> Callable[[frozenset[str]], str]:
    """How the watch writes a reader's tags: each UID with its enrolled kind, or
    "not enrolled" (``tags`` None: the UIDs alone)."""

    def named(uids: frozenset[str]) -> str:
        if tags is None:
            return " ".join(sorted(uids))
        unknown = told("not_enrolled")
        return ", ".join(f"{uid} ({tags.get(uid, unknown)})" for uid in sorted(uids))

    return named


def check_configured_display(
    config: Config | ConfigError, out: TextIO | None = None, data_dir: str | None = None
) -> int:
    """The display part of the diagnosis: 0 when the configured OLED draws (or none is
    configured), 1 when it is missing or failing, 2 when the config itself is bad (the
    error `load_config` raised). ``data_dir``: the ``--data-dir`` override (a capture
    display draws there)."""
    out = out or sys.stdout
    from companion.devices.display import check_display

    if isinstance(config, ConfigError):
        print(told("config", problem=config), file=out)
        return 2
    ok, message = check_display(config.display, find_data_dir(config, data_dir))
    print(message, file=out)
    return 0 if ok else 1


def _data_dir_tags(config: Config, data_dir: str | None, out: TextIO) -> Mapping[str, str] | str:
    """The enrolled tags of the data directory (`companion enroll` wrote them), reported
    on ``out``; or one line saying why the directory cannot be used."""
    from companion.devices.registry import RegistryError, TagRegistry

    data = locate_data_dir(config, data_dir)
    problem = data.problem()
    if problem is not None:
        return problem
    try:
        registry = TagRegistry(data.path)
    except (RegistryError, OSError) as exc:
        print(told("tags", why=exc), file=out)
        return {}
    print(told("data", path=data.path, origin=data.origin, n=len(registry)), file=out)
    return dict(registry)


def _doctor_command(args: argparse.Namespace) -> int:
    if args.walk:
        from companion.devices.walk import walk_command

        return walk_command(args)
    config: Config | ConfigError
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        config = exc  # the display check reports it; the readers are checked all the same
    tags = _data_dir_tags(config, args.data_dir, sys.stdout) if isinstance(config, Config) else {}
    if isinstance(tags, str):
        return fail("doctor", tags)
    display = check_configured_display(config, data_dir=args.data_dir)
    if display == 2:
        print(said("cli.fail", command="doctor", message=told("bad_config")), file=sys.stderr)
    if args.display_only:
        return display
    sound = 0
    if isinstance(config, Config):
        from companion.devices.sound import check_sound

        ok, message = check_sound(config.sound, config.game.language)
        print(message)
        sound = 0 if ok else 1
    readers = config.readers if isinstance(config, Config) else ReadersConfig()
    readers_status = run_doctor(
        args.port,
        seconds=args.seconds,
        readers=args.readers,
        restart=not args.no_restart,
        tags=tags,
        settle_us=args.settle_us if args.settle_us is not None else readers.settle_us,
        find_settle=args.find_settle,
    )
    return max(display, sound, readers_status)


def add_port_option(parser: argparse.ArgumentParser) -> None:
    """``--port PATH``: the Pico's serial device (`doctor`, `enroll`)."""
    parser.add_argument(
        "--port", type=path_text, metavar=said("cli.metavar.path"), help=said("cli.reader.port")
    )


def add_doctor_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion doctor`` to ``subparsers`` (``func`` returns the exit code)."""
    p = subparsers.add_parser(
        "doctor",
        help=said("cli.summary.doctor"),
        description=said("cli.doctor.description", config=CONFIG_DOC),
    )
    add_config_option(p)
    add_data_dir_option(p)
    p.add_argument("--display-only", action="store_true", help=said("cli.doctor.display_only"))
    add_port_option(p)
    p.add_argument(
        "--seconds",
        type=positive_seconds,
        default=3.0,
        metavar=said("cli.metavar.seconds"),
        help=said("cli.doctor.seconds"),
    )
    p.add_argument(
        "--readers", type=whole_number(1, MAX_READERS), default=None,
        metavar=said("cli.metavar.n"), help=said("cli.doctor.readers", max=MAX_READERS),
    )  # fmt: skip
    p.add_argument(
        "--settle-us",
        type=whole_number(0, 20000),
        default=None,
        metavar=said("cli.metavar.n"),
        help=said("cli.doctor.settle_us"),
    )
    p.add_argument(
        "--find-settle",
        nargs="?",
        const=SETTLE_CYCLES,
        default=0,
        type=whole_number(1, 62),
        metavar=said("cli.metavar.cycles"),
        help=said("cli.doctor.find_settle", cycles=SETTLE_CYCLES, high=SETTLE_MAX_US,
                  step=SETTLE_STEP_US),
    )  # fmt: skip
    p.add_argument("--no-restart", action="store_true", help=said("cli.doctor.no_restart"))
    from companion.devices.walk import add_walk_options

    add_walk_options(p)
    p.set_defaults(func=_doctor_command)
