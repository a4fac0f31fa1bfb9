"""The Ray backend (``tournament --backend ray``) on a real Ray cluster that these tests start
on this machine: a head and one more node (``ray start``), each with one CPU, so that two
tables play at once, one on each node. No mock: the tables are Ray tasks, the bots real
processes started by Ray's worker processes, and a test kills one of those mid-table."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from clihelp import ok, one_line_error, together, zole, zoles
from hostilehelp import wait_for
from prochelp import marked_processes

pytestmark = pytest.mark.long  # minutes long: run first (conftest.py)

TESTS = Path(__file__).resolve().parent
CLOCK_BOT = TESTS / "helper_bots" / "clock_bot.py"
PY = sys.executable
RAY = str(Path(sys.executable).with_name("ray"))


@dataclass(frozen=True)
class Cluster:
    address: str
    mark: str
    """Every process of the cluster (and each bot its workers start) has ZOLE_TEST_RUN=mark."""
    folders: tuple[str, str]
    """The head's and the other node's temporary folders."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _cluster_processes(mark: str, folders: tuple[str, ...]) -> list[int]:
    """The cluster's live processes: those with its mark, and those holding a file in its
    folders (Ray's agents run with an environment of their own)."""
    found = set(marked_processes(mark))
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        with contextlib.suppress(OSError):
            links = [
                os.readlink(f"/proc/{entry}/fd/{fd}") for fd in os.listdir(f"/proc/{entry}/fd")
            ]
            if any(link.startswith(folders) for link in links):
                found.add(int(entry))
    return sorted(pid for pid in found if _alive(pid))


def _reap(pid: int) -> None:
    """Wait for a killed process of the cluster if this process is its parent: it is when
    a test before made it a child subreaper (as the arena makes itself), and Ray's workers
    take a raylet that is a zombie for a live one."""
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


def _stop(mark: str, folders: tuple[str, ...]) -> None:
    """Kill this cluster's processes ('ray stop' would stop every cluster on the machine)."""
    for pid in _cluster_processes(mark, folders):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
            _reap(pid)
    wait_for(lambda: not _cluster_processes(mark, folders), 30, "the cluster's processes to end")


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    mark = uuid.uuid4().hex
    port = _free_port()
    # Short temporary folders: Ray's socket paths inside them must stay under 108 bytes.
    head, node = (tempfile.mkdtemp(prefix="zr", dir="/tmp") for _ in range(2))
    env = {**os.environ, "ZOLE_TEST_RUN": mark, "RAY_USAGE_STATS_ENABLED": "0"}
    common = ["--num-cpus=1", "--disable-usage-stats", f"--object-store-memory={200 << 20}"]
    try:
        # Started in their own folders: a task's worker runs there, not in the tests' folder.
        subprocess.run([RAY, "start", "--head", f"--port={port}", "--include-dashboard=false",
                        f"--temp-dir={head}", *common], env=env, check=True, cwd=head,
                       capture_output=True, timeout=120)  # fmt: skip
        subprocess.run([RAY, "start", f"--address=127.0.0.1:{port}", f"--temp-dir={node}",
                        *common], env=env, check=True, capture_output=True, cwd=node,
                       timeout=120)  # fmt: skip
        address = f"127.0.0.1:{port}"
        alive = subprocess.run(
            [PY, "-c", "import ray, sys; ray.init(address=sys.argv[1], logging_level='ERROR'); "
             "print(sum(n['Alive'] for n in ray.nodes()))", address],
            env=env, check=True, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert alive.stdout.split()[-1] == "2", alive  # a head and one more node
        yield Cluster(address, mark, (head, node))
    finally:
        _stop(mark, (head, node))
        for folder in (head, node):
            shutil.rmtree(folder, ignore_errors=True)


def records(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def by_table(log: Path) -> dict[tuple[int, int], dict[str, Any]]:
    """Each deal's cards, bids and plays by (table, deal): what must not depend on where or
    in which order the tables were played."""
    lines = records(log)
    tables = {r["match_id"]: r["tournament"]["table"] for r in lines if r["type"] == "match"}
    return {
        (tables[r["match_id"]], r["deal"]): {
            "hands": r["hands"],
            "talon": r["talon"],
            "seating": r["seating"],
            "moves": [m["action"] for m in r["moves"]],
            "scores": r["result"]["scores"],
        }
        for r in lines
        if r["type"] == "deal"
    }


def thinkers(count: int) -> list[str]:
    """Deterministic bots that spend 80% of each decision's time: a table lasts seconds."""
    return [f"c{i}={PY} {CLOCK_BOT} share" for i in range(count)]


# A generous margin: a thinker late by a few ms under a loaded CI (tests run two at once)
# must not forfeit, or the deals differ from the reference for a reason this file does not test.
SLOW = ("--movetime", "25", "--timemargin", "2000", "--blocks", "2", "--seed", "11", "--no-sandbox")


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[int, int], dict[str, Any]]:
    """The slow tournament's deals played on this machine (local workers), to compare with."""
    folder = tmp_path_factory.mktemp("local")
    ok(zole("tournament", *thinkers(4), *SLOW, "--concurrency", "2", "--log", "local.jsonl",
            cwd=folder))  # fmt: skip
    return by_table(folder / "local.jsonl")


def ray_table_tasks(mark: str) -> list[int]:
    """The cluster's worker processes that are playing a table now."""
    found = []
    for pid in marked_processes(mark):
        try:
            title = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if title.startswith(b"ray::_table_task"):
            found.append(pid)
    return found


@contextlib.contextmanager
def slow_on_ray(cluster: Cluster, cwd: Path, log: Path) -> Iterator[subprocess.Popen[str]]:
    """The slow tournament on the cluster, as a process (killed if a test leaves it)."""
    proc = subprocess.Popen(
        [PY, "-m", "zole_arena", "tournament", *thinkers(4), *SLOW, "--concurrency", "2",
         "--backend", "ray", "--ray-address", cluster.address, "--log", str(log)],
        cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def until_deal(proc: subprocess.Popen[str], number: int) -> None:
    """Read the tournament's progress ("deal N/48, ..." once deal N is in the log) up to deal
    ``number``."""
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("deal ") and int(line.split()[1].split("/")[0]) >= number:
            return
    pytest.fail(f"the tournament ended before deal {number}")


def test_a_ray_tournament_plays_the_deals_of_a_local_one(tmp_path: Path, cluster: Cluster) -> None:
    # Deterministic bots, whichever process plays which table.
    # A movement (6 bots: 10 board groups of 2 tables), as sandboxed bots play by default.
    bots = ["rulebot", "cbot", "r2=rulebot", "c2=cbot", "r3=rulebot", "c3=cbot"]
    args = ["--blocks", "1", "--seed", "7", "--no-sandbox", "--movement", "--concurrency", "2",
            "--option", "r2:Aggression=20", "--option", "r3:Aggression=80"]  # fmt: skip
    local, remote = map(ok, zoles(  # at once: the cluster's tables play beside the local ones
        ["tournament", *bots, *args, "--log", "local.jsonl"],
        ["tournament", *bots, *args, "--backend", "ray", "--ray-address", cluster.address,
         "--log", "ray.jsonl"],
        cwd=tmp_path,
    ))  # fmt: skip
    assert f"on the Ray cluster {cluster.address}" in remote.stdout
    assert f"the Ray cluster {cluster.address}: 2 nodes, 2 CPUs" in remote.stdout
    assert "Ray cluster" not in local.stdout
    # The bots' stderr files are beside the log, not in the folders the nodes run in (a kept
    # bot's stays in the file of the first table it played).
    written = {p.name.split(".")[1] for p in (tmp_path / "ray.jsonl.stderr").glob("table-*")}
    assert written == {"rulebot", "cbot", "r2", "c2", "r3", "c3"}
    assert not [p for f in cluster.folders for p in Path(f).glob("*.stderr")]
    assert len(by_table(tmp_path / "ray.jsonl")) == 20 * 6
    assert by_table(tmp_path / "ray.jsonl") == by_table(tmp_path / "local.jsonl")
    assert json.loads((tmp_path / "ray.jsonl").read_text().splitlines()[0])["boards"] == "movement"
    assert "120 of 120 deals verify" in ok(zole("verify", "ray.jsonl", cwd=tmp_path)).stdout
    # The log is an ordinary tournament log: standings, ratings, report.
    rated = json.loads(ok(zole("ratings", "ray.jsonl", "--json", cwd=tmp_path)).stdout)
    assert len(rated["ratings"]) == 6


def test_an_lzf_tournament_on_ray_plays_the_rounds_of_a_local_one(
    tmp_path: Path, cluster: Cluster
) -> None:
    """Rounds at tables of four on the cluster: each round's seating follows from the round
    before, its tables (and their settles) come back through the nodes as locally."""
    bots = ["rulebot", "cbot", "r2=rulebot", "c2=cbot", "r3=rulebot", "c3=cbot", "r4=rulebot",
            "c4=cbot"]  # fmt: skip
    args = ["--format", "lzf", "--rounds", "2", "--deals", "4", "--rules", "lzf", "--seed", "3",
            "--no-sandbox", "--concurrency", "2", "--option", "r2:Aggression=20",
            "--option", "r3:Aggression=80", "--option", "c2:Aggression=20",
            "--option", "c3:Aggression=80"]  # fmt: skip
    local, remote = map(ok, zoles(
        ["tournament", *bots, *args, "--log", "local.jsonl", "--json"],
        ["tournament", *bots, *args, "--backend", "ray", "--ray-address", cluster.address,
         "--log", "ray.jsonl", "--json"],
        cwd=tmp_path,
    ))  # fmt: skip
    assert by_table(tmp_path / "ray.jsonl") == by_table(tmp_path / "local.jsonl")
    assert len(by_table(tmp_path / "ray.jsonl")) == 2 * 2 * 4

    def settles(log: Path) -> dict[str, list[int]]:  # by table (the match id's end)
        return {r["match_id"].rsplit("-", 1)[1]: r["totals"] for r in records(log)
                if r["type"] == "settle"}  # fmt: skip

    assert settles(tmp_path / "ray.jsonl") == settles(tmp_path / "local.jsonl")
    big = [(e["name"], e["big_points"]) for e in json.loads(remote.stdout)["standings"]]
    assert big == [(e["name"], e["big_points"]) for e in json.loads(local.stdout)["standings"]]
    assert "16 of 16 deals verify" in ok(zole("verify", "ray.jsonl", cwd=tmp_path)).stdout


def test_sandboxed_bots_play_on_the_nodes(tmp_path: Path, cluster: Cluster) -> None:
    log = tmp_path / "sandboxed.jsonl"
    ok(zole("tournament", "rulebot", "cbot", "crandom", "--blocks", "1", "--seed", "2",
            "--backend", "ray", "--ray-address", cluster.address, "--log", log.name,
            cwd=tmp_path))  # fmt: skip
    header = records(log)[0]
    assert header["isolation"].startswith("sandboxed (bubblewrap)")
    deals = [r for r in records(log) if r["type"] == "deal"]
    assert len(deals) == 6 and not any(d["faults"] for d in deals)
    assert "6 of 6 deals verify" in ok(zole("verify", log.name, cwd=tmp_path)).stdout


def test_a_killed_ray_worker_loses_no_deal(
    tmp_path: Path, cluster: Cluster, reference: dict[tuple[int, int], dict[str, Any]]
) -> None:
    log = tmp_path / "ray.jsonl"
    with slow_on_ray(cluster, tmp_path, log) as proc:
        until_deal(proc, 6)
        victims = wait_for(lambda: ray_table_tasks(cluster.mark), 30, "a table's Ray task")
        os.kill(victims[0], signal.SIGKILL)  # mid-table: each table lasts some 5 s
        _, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 0, stderr
    assert re.search(r"table \d: its Ray task was lost \(\w+\); it goes on from deal \d+", stderr)
    played = by_table(log)
    assert len(played) == 4 * 12
    assert played == reference  # the lost deals were played again
    assert "48 of 48 deals verify" in ok(zole("verify", log.name, cwd=tmp_path)).stdout
    # The killed worker's bots read the end of their input and went.
    wait_for(lambda: not [p for p in marked_processes(cluster.mark)
                          if b"clock_bot" in Path(f"/proc/{p}/cmdline").read_bytes()],
             60, "the bots of the cluster's workers to end")  # fmt: skip


def test_a_stopped_ray_tournament_resumes_on_the_local_backend(
    tmp_path: Path, cluster: Cluster, reference: dict[tuple[int, int], dict[str, Any]]
) -> None:
    log = tmp_path / "cut.jsonl"
    with slow_on_ray(cluster, tmp_path, log) as proc:
        until_deal(proc, 4)
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and f"--resume {log}" in stderr
    played = len([r for r in records(log) if r["type"] == "deal"])
    assert 4 <= played < 48
    ok(zole("tournament", "--resume", log.name, "--no-sandbox", cwd=tmp_path))  # here
    assert by_table(log) == reference
    ok(zole("verify", log.name, cwd=tmp_path))


def test_a_node_that_dies_loses_no_deal(
    tmp_path: Path, cluster: Cluster, reference: dict[tuple[int, int], dict[str, Any]]
) -> None:
    """The last test on the cluster: it leaves the head alone."""
    node = cluster.folders[1]

    def raylet() -> list[int]:
        """The other node's raylet (its command line names the node's folder)."""
        found = []
        for pid in marked_processes(cluster.mark):
            with contextlib.suppress(OSError):
                argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
                if argv[0].endswith(b"raylet") and any(node.encode() in a for a in argv):
                    found.append(pid)
        return found

    def playing_there() -> list[int]:
        """The other node's raylet, once a table's task runs on that node (its child)."""
        there = raylet()
        for pid in ray_table_tasks(cluster.mark) if there else []:
            with contextlib.suppress(OSError):
                stat = Path(f"/proc/{pid}/stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) in there:  # its parent
                    return there
        return []

    log = tmp_path / "ray.jsonl"
    with slow_on_ray(cluster, tmp_path, log) as proc:
        # As soon as a table plays there (it has seconds to go: a node's worker notices its
        # raylet's death within two), the node dies.
        victim = wait_for(playing_there, 60, "a table on the other node")[0]
        os.kill(victim, signal.SIGKILL)
        _reap(victim)
        _, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 0, stderr
    # (Its worker may notice first that its raylet is gone, and end.)
    assert re.search(r"its Ray task was lost \((NodeDiedError|WorkerCrashedError)\)", stderr)
    assert by_table(log) == reference
    assert "48 of 48 deals verify" in ok(zole("verify", log.name, cwd=tmp_path)).stdout


def test_ray_backend_errors_are_one_line(tmp_path: Path) -> None:
    bots = ["rulebot", "cbot", "crandom"]
    port = _free_port()  # nothing listens there
    # Without Ray installed (an import of it fails): what to install.
    shadow = tmp_path / "shadow" / "ray"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('no Ray here')\n")
    no_ray = {**os.environ, "PYTHONPATH": str(shadow.parent)}
    cases = [  # (arguments, environment, what the error says), all run at once
        (["--backend", "ray", "--ray-address", f"127.0.0.1:{port}"], None,
         "no Ray cluster answers"),
        (["--ray-address", "127.0.0.1:6379"], None, "--ray-address is for --backend ray"),
        (["--backend", "ray", "--affinity"], None, "--affinity is for the local backend"),
        (["--backend", "spark"], None, "--backend must be local or ray"),
        (["--backend", "ray", "--ray-address", "nowhere"], None, "is not HOST:PORT"),
        (["--backend", "ray"], no_ray, "the Ray backend needs Ray: pip install ray"),
    ]  # fmt: skip
    done = together(*(functools.partial(zole, "tournament", *bots, *args, cwd=tmp_path, env=env)
                      for args, env, _ in cases))  # fmt: skip
    for proc, (_, _, needle) in zip(done, cases, strict=True):
        one_line_error(proc, needle)
    assert not list(tmp_path.glob("*.jsonl"))  # nothing was logged


def test_a_node_with_another_arena_version_refuses_the_table() -> None:
    from zole_arena.events.ray_backend import _table_task
    from zole_arena.events.schedule import TournamentError

    with pytest.raises(TournamentError, match="install the same version on every node"):
        next(_table_task(b"{}", "0.0.0-other"))


def test_a_table_asks_ray_for_its_bots_memory(tmp_path: Path, cluster: Cluster) -> None:
    """A table's task asks the scheduler for its sandboxed bots' memory (their limits
    together), so that no bot can push a node to where Ray kills the task and the table is
    played again from the deal under way (a bot would choose deals to replay). A table that
    no node has the memory for fails in one line, and nothing is played."""
    done = zole("tournament", "rulebot", "cbot", "crandom", "--blocks", "1", "--seed", "2",
                "--max-memory-mb", "10000000", "--backend", "ray", "--ray-address",
                cluster.address, "--log", "big.jsonl", cwd=tmp_path)  # fmt: skip
    assert done.returncode != 0, done.stdout + done.stderr
    said = done.stdout + done.stderr
    assert "no node of the Ray cluster has the memory for this table's sandboxed bots" in said
    assert "Traceback" not in said
    assert not [r for r in records(tmp_path / "big.jsonl") if r["type"] == "deal"]
