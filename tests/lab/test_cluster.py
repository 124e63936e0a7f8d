"""`companion lab FILE --cluster ADDRESS`: the games played by a real Dask cluster's
workers give the very figures one core gives (game i depends on (seed, i) alone)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import distributed
import pytest  # a dev dependency: the suite needs it, like hypothesis

from companion.cli import main
from companion.lab import runner

LAB = """
game = "ptipasspass"
players = 3
bots = ["heuristic", "random", "heuristic"]
games = 150
seed = 4

[[variant]]
name = "as ruled"

[[variant]]
name = "the winner starts the next manche"
rules = { next_starter = "winner" }
"""


def test_a_cluster_of_two_workers_gives_the_figures_of_one_core_byte_for_byte(tmp_path, capsys):
    lab = tmp_path / "lab.toml"
    lab.write_text(LAB, encoding="utf-8")
    # Two workers of one thread each, in this process (processes take seconds to start),
    # reached over real TCP on the loopback as a scheduler on another machine would be.
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        on_cluster = tmp_path / "cluster"
        args = ["lab", str(lab), "--cluster", cluster.scheduler_address, "--out", str(on_cluster)]
        assert main(args) == 0
        progress = capsys.readouterr().err
        assert "300/300 games" in progress  # the progress bar follows the cluster's chunks
    one_core = tmp_path / "one"
    assert main(["lab", str(lab), "--workers", "1", "--out", str(one_core), "--quiet"]) == 0
    for name in ("figures.json", "figures.csv"):
        assert (on_cluster / name).read_bytes() == (one_core / name).read_bytes()


def test_a_scheduler_that_cannot_be_reached_is_one_line_and_nothing_is_written(
    tmp_path, capsys, monkeypatch
):
    monkeypatch.setattr(runner, "CONNECT_SECONDS", 1.0)
    with socket.socket() as s:  # a free port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    lab = tmp_path / "lab.toml"
    lab.write_text(LAB, encoding="utf-8")
    out = tmp_path / "out"
    address = f"tcp://127.0.0.1:{port}"
    assert main(["lab", str(lab), "--cluster", address, "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert f"cannot reach the Dask scheduler at {address}" in err
    assert not out.exists()


# ------------------------------------------------------------------ a cluster that fails

FAILING = """
game = "ptipasspass"
players = 3
bots = ["heuristic"]
seed = 4

[[variant]]
name = "short"
games = 100

[[variant]]
name = "long"
games = 3000

[ladder]
rungs = ["random", "heuristic"]
games = 20
"""


@pytest.fixture
def dask_cluster():
    """A real scheduler and one worker, each its own process (as on other machines), on
    loopback ports: (address, scheduler process, worker process)."""
    dask = str(Path(sys.executable).with_name("dask"))
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen(
        [dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
         "--dashboard-address", ":0", "--no-show"], **quiet,
    )  # fmt: skip
    worker = subprocess.Popen(
        [dask, "worker", address, "--nthreads", "1", "--no-nanny", "--host", "127.0.0.1",
         "--dashboard-address", ":0"], **quiet,
    )  # fmt: skip
    try:
        with distributed.Client(address, timeout=30) as client:
            client.wait_for_workers(1, timeout=60)
        yield address, scheduler, worker
    finally:
        for process in (worker, scheduler):
            process.kill()
            process.wait(timeout=30)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _KillAt:
    """A progress bar that kills a process once `at` games of the variants are played."""

    def __init__(self, process: subprocess.Popen[bytes], at: int) -> None:
        self.process, self.at = process, at

    def __call__(self, done: int, total: int) -> None:
        if total > self.at and done >= self.at and self.process.poll() is None:
            self.process.kill()


def _run_until_killed(tmp_path, monkeypatch, address, process, *flags):
    from companion.lab import cli

    lab = tmp_path / "lab.toml"
    lab.write_text(FAILING, encoding="utf-8")
    out = tmp_path / "out"
    monkeypatch.setattr(cli, "ProgressBar", lambda **_: _KillAt(process, 600))
    start = time.monotonic()
    code = main(["lab", str(lab), "--cluster", address, "--out", str(out), *flags])
    return code, out, time.monotonic() - start


def test_a_cluster_left_without_workers_stops_in_one_line_and_keeps_what_was_played(
    tmp_path, capsys, monkeypatch, dask_cluster
):
    address, _, worker = dask_cluster
    code, out, seconds = _run_until_killed(
        tmp_path, monkeypatch, address, worker, "--worker-wait", "2"
    )
    assert code == 2 and seconds < 60
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err  # one line, whatever else a loaded machine makes happen
    (line,) = lines
    assert f"the Dask scheduler at {address} has had no worker for 2 s" in line
    assert f"dask worker {address}" in line and "--worker-wait" in line
    assert f"kept in {out}: ladder.html, report.html with 1 of 2 variants" in line
    _only_the_short_variant_is_kept(out)


def test_a_lost_scheduler_stops_in_one_line_and_keeps_what_was_played(
    tmp_path, capsys, monkeypatch, dask_cluster
):
    address, scheduler, _ = dask_cluster
    code, out, seconds = _run_until_killed(tmp_path, monkeypatch, address, scheduler)
    assert code == 2 and seconds < 60
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert f"lost the Dask scheduler at {address}: restart it" in line
    assert "Traceback" not in line and "please report" not in line
    assert f"kept in {out}: ladder.html, report.html with 1 of 2 variants" in line
    _only_the_short_variant_is_kept(out)


def _only_the_short_variant_is_kept(out):
    import json

    figures = json.loads((out / "figures.json").read_text(encoding="utf-8"))
    assert [v["variant"] for v in figures["variants"]] == ["short"]
    assert figures["variants"][0]["games"] == 100
    report = (out / "report.html").read_text(encoding="utf-8")
    assert "stopped early: 1 of 2 variants" in report and "Skill ladder" in report
    assert json.loads((out / "ladder.json").read_text(encoding="utf-8"))["ratings"]
