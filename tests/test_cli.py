"""The command line as a user runs it: a real process, its output and exit code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "zole_arena", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "COLUMNS": "120", "NO_COLOR": "1"},
    )


def assert_one_line_error(proc: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    for needle in needles:
        assert needle in lines[0]


def test_version() -> None:
    proc = run("--version")
    assert proc.returncode == 0
    assert proc.stdout.startswith("zole-arena ")


def test_rules_default_is_wpt() -> None:
    proc = run("rules")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("wpt:")
    assert "bids: pass, take " in proc.stdout
    assert "table game" in proc.stdout
    for amount in ("+6", "+5", "+4", "-5", "-6", "-7"):
        assert amount in proc.stdout


def test_rules_lzf_shows_zole_and_pules() -> None:
    proc = run("rules", "--rules", "lzf")
    assert proc.returncode == 0, proc.stderr
    assert "bids: pass, take, zole " in proc.stdout
    assert "common pule" in proc.stdout
    assert "small zole (off)" in proc.stdout


def test_rules_json_round_trips_a_rules_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(
        'preset = "lzf"\ncontracts = ["take", "zole", "small_zole"]\n'
        "personal_pule_bonus = 3\n[take]\nwin = 2\n"
    )
    proc = run("rules", "--rules", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["name"] == "lzf+mine.toml"
    assert data["contracts"] == ["take", "zole", "small_zole"]
    assert data["personal_pule_bonus"] == 3
    assert data["take"]["win"] == 2
    assert data["take"]["loss"] == -2  # the rest of the table comes from the preset


def test_bad_rules_file_gets_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('preset = "lzf"\nall_pass = "sometimes"\n')
    assert_one_line_error(run("rules", "--rules", str(path)), "all_pass", "'sometimes'")
    path.write_text('preset = "lzf"\npule_bonus = 3\n')
    assert_one_line_error(run("rules", "--rules", str(path)), "unknown key 'pule_bonus'")
    path.write_text("preset = \n")
    assert_one_line_error(run("rules", "--rules", str(path)), "not valid TOML")
    assert_one_line_error(run("rules", "--rules", "nosuch"), "no such preset or file")


def test_bench_json_reports_deals_per_second() -> None:
    proc = run("bench", "--deals", "300", "--rounds", "3", "--rules", "lzf", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["deals_per_second"] > 0
    assert data["deals"] == 300
    assert data["rules"] == "lzf"
    assert 3 <= data["actions_per_deal"] <= 27


def test_bench_plain_output() -> None:
    proc = run("bench", "--deals", "200", "--rounds", "2")
    assert proc.returncode == 0, proc.stderr
    assert "deals/s" in proc.stdout
    assert "200 random wpt deals" in proc.stdout


def test_bench_match_compares_with_raw_round_trips() -> None:
    proc = run("bench", "--match", "--deals", "30", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["deals"] == 30
    assert data["target_share"] == 0.5
    placements = {p["placement"]: p for p in data["placements"]}
    free = placements["free"]
    if len(os.sched_getaffinity(0)) > 1:
        assert set(placements) == {"free", "pinned"}
        assert len(placements["pinned"]["cpus"]) == 1
    for figures in placements.values():
        assert figures["deals"] == 30
        assert figures["raw_samples"] == 30  # five raw round trips after every fifth deal
        assert figures["decisions_per_deal"] >= 3
        allowed = 1e6 / (figures["decisions_per_deal"] * figures["raw_echo_us"])
        assert abs(figures["raw_deals_per_second"] - allowed) < 1e-6 * allowed
        assert abs(figures["share_of_raw"] - figures["deals_per_second"] / allowed) < 1e-9
        assert abs(figures["bare_share_of_raw"] - figures["bare_deals_per_second"] / allowed) < 1e-9
        bare = figures["deals_per_second"] / figures["bare_deals_per_second"]
        assert abs(figures["share_of_bare"] - bare) < 1e-9
        if figures["placement"] == "pinned":
            assert figures["target"] == "within 2× of the bare loop"
            assert figures["target_met"] == (2 * bare >= 1)
        else:
            assert figures["target_met"] == (figures["share_of_raw"] >= 0.5)
    assert free["cpus"] == sorted(os.sched_getaffinity(0))
    plain = run("bench", "--match", "--deals", "10", "--no-pin")
    assert plain.returncode == 0, plain.stderr
    assert "placement: free" in plain.stdout
    assert "placement: pinned" not in plain.stdout
    assert "raw pipe round trips allow" in plain.stdout
    assert "bare Python loop" in plain.stdout
    assert "target at least 50% of raw" in plain.stdout


def test_bench_match_sandboxed_measures_what_the_sandbox_costs() -> None:
    proc = run("bench", "--match", "--sandbox", "--deals", "10", "--no-pin", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["sandboxed"] is True and data["deals"] == 10
    (free,) = data["placements"]
    assert free["deals"] == 10 and free["deals_per_second"] > 0
    text = run("bench", "--match", "--sandbox", "--deals", "5", "--no-pin")
    assert text.returncode == 0, text.stderr
    assert "match of three sandboxed" in text.stdout


def test_bench_report_measures_a_report_and_its_opening() -> None:
    from zole_arena.players.proctree import become_subreaper

    become_subreaper()  # as the arena makes itself: the browser's orphans would come here
    proc = run("bench", "--report", "--deals", "60", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["deals"] == 60
    assert 0 < data["report_bytes"] < data["log_bytes"]
    assert data["collect_seconds"] > 0 and data["render_seconds"] > 0
    # The browser tests' Chromium is here in CI, so the opening is measured too.
    assert (data["open_ms"] is not None) == data["browser"].startswith(("chromium", "google"))
    plain = run("bench", "--report", "--deals", "30")
    assert "bytes a deal" in plain.stdout and "Traceback" not in plain.stderr
    # Nothing of the browser is handed to this process (a subreaper, as the arena makes it).
    from test_faults import our_children

    assert not [child for child in our_children() if "chrom" in child]


def test_bench_modes_exclude_each_other() -> None:
    assert_one_line_error(run("bench", "--match", "--tournament"), "--match, --tournament")
    assert_one_line_error(run("bench", "--protocol", "--match", "--tournament"), "3 of them")
    assert_one_line_error(run("bench", "--sandbox", "--report"), "--sandbox, --report")
    # --match with --sandbox is one mode: the match benchmark, its bots sandboxed.
    assert_one_line_error(run("bench", "--sandbox", "--match", "--report"), "3 of them")


def test_bench_rejects_bad_counts() -> None:
    assert_one_line_error(run("bench", "--deals", "0"), "--deals must be at least 1")
    assert_one_line_error(run("bench", "--fields", "--bots", "4"), "--bots must be from 5 to 20")
    assert_one_line_error(run("bench", "--bots", "8"), "--bots and --ray-address are for --fields")


def test_bench_fields_compares_a_balanced_field_with_a_round_robin() -> None:
    proc = run("bench", "--fields", "--bots", "5", "--json")
    assert proc.returncode == 0, proc.stderr
    fresh, kept = json.loads(proc.stdout)["runs"]
    assert (fresh["tables"], fresh["deals"]) == (10, 60)  # every table of 5 bots, a block each
    assert kept["tables"] < fresh["tables"] and abs(kept["deals"] - fresh["deals"]) <= 12
    for run_ in (fresh, kept):
        assert -1 <= run_["kendall"] <= 1 and -1 <= run_["spearman"] <= 1
        assert run_["deals_per_second"] > 0
    # The round-robin's tables all play one block: one cluster of cards, no interval.
    assert fresh["interval"] is None and kept["interval"] > 0


def test_usage_error_exits_2() -> None:
    proc = run("rules", "--no-such-option")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
