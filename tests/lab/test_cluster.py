"""`companion lab FILE --cluster ADDRESS`: the games played by a real Dask cluster's
workers give the very figures one core gives (game i depends on (seed, i) alone)."""

from __future__ import annotations

import socket

import distributed  # a dev dependency: the suite needs it, like hypothesis

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
