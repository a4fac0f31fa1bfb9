"""``zole-arena bench``: rules-engine speed in random legal full deals per second."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from zole_arena.bench.engine import run_bench, run_protocol_bench
from zole_arena.bench.fields import run_fields_bench
from zole_arena.bench.match import run_match_bench
from zole_arena.bench.sandbox import run_sandbox_bench
from zole_arena.bench.tournament import run_tournament_bench
from zole_arena.cli.console import fail, out, print_json
from zole_arena.cli.options import RulesOption
from zole_arena.game.rules import PRESETS, load_rules


def bench_command(
    deals: Annotated[int, typer.Option("--deals", "-n", help="Deals to play in all.")] = 50_000,
    rounds: Annotated[int, typer.Option(help="Timed rounds; the best one is reported.")] = 5,
    rules: RulesOption = PRESETS[0],
    seed: Annotated[int, typer.Option(help="Match seed of the deals.")] = 1,
    json_output: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    protocol: Annotated[
        bool,
        typer.Option(
            "--protocol",
            help="Instead: time a decision through the arena against raw pipe round trips.",
        ),
    ] = False,
    decisions: Annotated[int, typer.Option(help="With --protocol: decisions to time.")] = 3000,
    match: Annotated[
        bool,
        typer.Option(
            "--match",
            help="Instead: play --deals deals (default 1000) between three copies of the "
            "fastest bundled bot, and as many through a bare Python loop, and compare both "
            "with what raw pipe round trips allow (target: at least 50%).",
        ),
    ] = False,
    tournament: Annotated[
        bool,
        typer.Option(
            "--tournament",
            help="Instead: play a round-robin of the bundled bots with --concurrency 1 and "
            "with --concurrency N, alternately, and compare deals per second.",
        ),
    ] = False,
    pin: Annotated[
        bool,
        typer.Option(
            "--pin/--no-pin",
            help="With --match: measure with all processes pinned to one CPU too (the "
            "fastest wake-ups, so the hardest comparison), beside the free placement.",
        ),
    ] = True,
    sandbox: Annotated[
        bool,
        typer.Option(
            "--sandbox",
            help="Instead: time a bot's start and a decision's round trip with and without "
            "--sandbox (the bundled Python bot, and the C bot with a C compiler). With "
            "--match: the match's bots sandboxed.",
        ),
    ] = False,
    report: Annotated[
        bool,
        typer.Option(
            "--report",
            help="Instead: play --deals deals (default 10,000) in-process, make their report, "
            "and print its size, the time to make it and (with Selenium and Chromium) to "
            "open it and show a deal in a headless browser.",
        ),
    ] = False,
    fields: Annotated[
        bool,
        typer.Option(
            "--fields",
            help="Instead: on a field of --bots rulebots of known strength order (5% more "
            "random moves each), a round-robin with fresh bots against a balanced "
            "tournament with kept bots at equal deals: deals per second and how well each "
            "one's ratings find the order (with --ray-address, the balanced one on Ray too).",
        ),
    ] = False,
    analysis: Annotated[
        bool,
        typer.Option(
            "--analysis",
            help="Instead: play --deals plain deals (default 1000) in-process and time their "
            "open-card analysis (zole-arena analyze) on one core and on all of them.",
        ),
    ] = False,
    bots: Annotated[int, typer.Option(help="With --fields: the field's size, 5 to 20.")] = 20,
    ray_address: Annotated[
        str | None,
        typer.Option(help="With --fields: also play the balanced tournament on this Ray cluster."),
    ] = None,
    concurrency: Annotated[
        int,
        typer.Option(
            help="With --tournament: the parallel setting; with --fields: tables at once."
        ),
    ] = 2,
    blocks: Annotated[
        int, typer.Option(help="With --tournament: duplicate blocks per table.")
    ] = 10,
) -> None:
    """Play random legal full deals in-process (deal, bid, bury, play, score) and print deals
    per second on one core; or, with --analysis, time the open-card analysis; with --protocol,
    time one decision through the arena against the raw round trip of a line through a pipe;
    with --match, a match's deals per second against what raw round trips allow; with
    --tournament, a tournament's speed-up from --concurrency. See docs/performance.md.
    """
    modes = [flag for flag, on in (("--protocol", protocol), ("--match", match),
             ("--tournament", tournament), ("--sandbox", sandbox), ("--report", report),
             ("--fields", fields), ("--analysis", analysis)) if on]  # fmt: skip
    if modes == ["--match", "--sandbox"]:
        _match_bench(deals if deals != 50_000 else 1000, pin, json_output, sandbox=True)
        return
    if len(modes) > 1:
        fail(f"give one of {', '.join(modes)}, not {len(modes)} of them")
    if report:
        _report_bench(deals if deals != 50_000 else 10_000, json_output)
        return
    if analysis:
        _analysis_bench(deals if deals != 50_000 else 1000, json_output)
        return
    if fields:
        _fields_bench(bots, concurrency, ray_address, json_output)
        return
    if bots != 20 or ray_address is not None:
        fail("--bots and --ray-address are for --fields")
    if sandbox:
        _sandbox_bench(decisions if decisions != 3000 else 1000, json_output)
        return
    if protocol:
        _protocol_bench(decisions, json_output)
        return
    if match:
        _match_bench(deals if deals != 50_000 else 1000, pin, json_output)
        return
    if tournament:
        _tournament_bench(blocks, rounds if rounds != 5 else 3, concurrency, json_output)
        return
    if deals < 1:
        fail(f"--deals must be at least 1, not {deals}")
    if rounds < 1:
        fail(f"--rounds must be at least 1, not {rounds}")
    result = run_bench(load_rules(rules), deals=deals, rounds=rounds, seed=seed)
    if json_output:
        print_json(result.to_dict())
        return
    out.print(
        f"{result.deals_per_second:,.0f} deals/s "
        f"(best of {result.rounds} rounds; median {result.median_deals_per_second:,.0f}) — "
        f"{result.deals:,} random {result.rules} deals, "
        f"{result.actions_per_deal:.1f} actions per deal, {result.seconds:.1f} s"
    )


def _fields_bench(bots: int, concurrency: int, address: str | None, json_output: bool) -> None:
    if not 5 <= bots <= 20:
        fail(f"--bots must be from 5 to 20, not {bots}")
    if concurrency < 1:
        fail(f"--concurrency must be at least 1, not {concurrency}")
    if address is not None:
        from zole_arena.events.ray_backend import RAY_MISSING, cluster_problem, ray_available

        problem = RAY_MISSING if not ray_available() else cluster_problem(address)[0]
        if problem is not None:
            fail(problem)
    if not json_output:
        out.print(
            f"{bots} rulebots, Epsilon 0% to {5 * (bots - 1)}% (the true order), "
            f"{concurrency} tables at a time, unsandboxed: a round-robin with fresh bots, then "
            "a balanced tournament with kept bots at about the same deals"
            + (f", then that on the Ray cluster {address}" if address else "")
            + " …"
        )
    result = run_fields_bench(bots, concurrency=concurrency, ray_address=address)
    if json_output:
        print_json(result.to_dict())
        return
    for run in result.runs:
        widths = (
            "n/a (every table plays the same one block)"
            if run.interval is None
            else f"{run.interval:.0f} Elo wide on average"
        )
        out.print(
            f"  {run.label}: {run.tables:,} tables, {run.deals:,} deals in {run.seconds:,.1f} s "
            f"= {run.deals_per_second:,.1f} deals/s; ratings against the true order: Spearman "
            f"{run.spearman:.3f}, Kendall {run.kendall:.3f}, 95% intervals {widths}"
        )
    fresh, kept, *ray = result.runs
    out.print(f"  balanced with kept bots: {kept.deals_per_second / fresh.deals_per_second:.2f}× "
              "the round-robin's deals per second")  # fmt: skip
    if ray:
        on_ray = ray[0]
        extra = (on_ray.seconds - kept.seconds) * result.concurrency / on_ray.tables
        out.print(
            f"  on Ray: {on_ray.deals_per_second / kept.deals_per_second:.2f}× the local "
            f"backend's deals per second; {extra * 1000:+,.0f} ms per table (a table's "
            f"slot-time over the local run's)"
        )


def _report_bench(deals: int, json_output: bool) -> None:
    if deals < 1:
        fail(f"--deals must be at least 1, not {deals}")
    from zole_arena.bench.report import OPENINGS, run_report_bench  # only when asked for

    if not json_output:
        out.print(f"playing {deals:,} deals in-process, making their report, opening it …")
    result = run_report_bench(deals)
    if json_output:
        print_json(result.to_dict())
        return
    out.print(
        f"  log {result.log_bytes / 1e6:,.1f} MB; report {result.report_bytes / 1e6:,.2f} MB "
        f"({result.report_bytes / result.deals:,.0f} bytes a deal, "
        f"{result.report_bytes / result.log_bytes:.1%} of the log)\n"
        f"  made in {result.collect_seconds + result.render_seconds:.1f} s "
        f"(reading and figures {result.collect_seconds:.1f} s, the page "
        f"{result.render_seconds:.1f} s)"
    )
    if result.open_ms is None or result.deal_ms is None:
        out.print(f"  opening: {result.browser}")
        return
    out.print(
        f"  opened in {result.open_ms:,.0f} ms to the deal list drawn, a deal shown in "
        f"{result.deal_ms:,.1f} ms (medians of {OPENINGS} openings, headless {result.browser})"
    )


def _analysis_bench(deals: int, json_output: bool) -> None:
    if deals < 10:
        fail(f"--deals must be at least 10, not {deals}")
    from zole_arena.bench.analysis import run_analysis_bench  # only when asked for

    if not json_output:
        out.print(f"playing {deals:,} plain wpt deals in-process and analysing them …")
    result = run_analysis_bench(deals)
    if json_output:
        print_json(result.to_dict())
        return
    out.print(
        f"  {result.deals:,} deals ({result.table_games:,} table games, "
        f"{result.decisions:,} decisions) in {result.seconds:,.1f} s with {result.workers} "
        f"workers: {result.ms_per_deal:,.0f} ms a deal; one worker "
        f"{result.ms_per_deal_one:,.0f} ms a deal (first {result.one_worker_deals:,} deals)\n"
        f"  10,000 such deals: {result.ten_thousand_minutes:,.1f} minutes"
    )


def _sandbox_bench(decisions: int, json_output: bool) -> None:
    if decisions < 100:
        fail(f"--decisions must be at least 100, not {decisions}")
    if not json_output:
        out.print(f"starting each bot 10 times and timing {decisions:,} decisions, plain and "
                  "sandboxed, alternately …")  # fmt: skip
    rows = run_sandbox_bench(decisions=decisions)
    if json_output:
        print_json([row.to_dict() for row in rows])
        return
    out.print(f"  {'bot':<8} {'start plain':>12} {'sandboxed':>10}   "
              f"{'decision plain':>15} {'sandboxed':>10}")  # fmt: skip
    for row in rows:
        out.print(
            f"  {row.bot:<8} {row.start_ms:9.1f} ms {row.sandboxed_start_ms:7.1f} ms   "
            f"{row.decision_us:12.1f} µs {row.sandboxed_decision_us:7.1f} µs",
            highlight=False,
        )
    out.print("  (medians; a sandbox is built once per bot start, its pipes are plain pipes)")


def _protocol_bench(decisions: int, json_output: bool) -> None:
    if decisions < 100:
        fail(f"--decisions must be at least 100, not {decisions}")
    result = run_protocol_bench(decisions)
    if json_output:
        print_json(result.to_dict())
        return
    out.print(
        f"decision round trip with {result.bot} ({result.language}), "
        f"{result.line_bytes}-byte requests, medians of {result.decisions:,}:"
    )
    rows = (
        (f"raw echo round trip (pipe to a minimal {result.language} echo)", result.raw_echo_us),
        ("raw bot round trip (the request straight to the bot)", result.raw_bot_us),
        ("decision through the arena", result.arena_us),
    )
    for label, value in rows:
        out.print(f"  {label:<58} {value:8.1f} µs")
    out.print(
        f"  arena / raw echo = {result.arena_vs_raw:.2f}×; the arena's own cost "
        f"(arena − raw bot) = {result.overhead_vs_raw:.2f}× the raw echo round trip"
    )


def _match_bench(deals: int, pinned: bool, json_output: bool, sandbox: bool = False) -> None:
    if deals < 1:
        fail(f"--deals must be at least 1, not {deals}")
    if not json_output:
        where = "freely placed and pinned to one CPU" if pinned else "freely placed"
        boxed = " (the match's bots sandboxed)" if sandbox else ""
        out.print(f"playing {deals:,} deals of a match and of a bare loop, {where}{boxed} …")
        if deals < 100:
            out.print(f"(with {deals} deals the figures are rough: 1,000 is the default)")
    result = run_match_bench(deals, pinned=pinned, sandbox=sandbox)
    if json_output:
        print_json(result.to_dict())
        return
    first = result.placements[0]
    out.print(
        f"match of three {'sandboxed ' if sandbox else ''}{result.bot} ({result.language}) "
        f"with the game log, against a bare "
        f"Python loop (no log, no checks of time or faults) and raw echo round trips, "
        f"{first.decisions_per_deal:.1f} decisions per deal"
    )
    if pinned and len(result.placements) == 1:
        out.print("  (this process may use one CPU only: the free placement is already pinned)")
    for figures in result.placements:
        cpus = ",".join(str(cpu) for cpu in figures.cpus)
        out.print(f"  placement: {figures.placement} (CPU {cpus})")
        rows = (
            (
                "raw pipe round trips allow",
                f"{figures.raw_deals_per_second:8,.0f} deals/s",
                f"{figures.decisions_per_deal:.1f} decisions × {figures.raw_echo_us:.1f} µs, the "
                f"median of {figures.raw_samples:,} raw echo round trips between the deals",
            ),
            (
                "bare Python loop",
                f"{figures.bare_deals_per_second:8,.0f} deals/s",
                f"{figures.bare_share_of_raw:.0%} of raw",
            ),
            (
                "match",
                f"{figures.deals_per_second:8,.0f} deals/s",
                f"{figures.share_of_raw:.0%} of raw, {figures.share_of_bare:.0%} of the bare "
                f"loop, {figures.decision_us:.1f} µs per decision; target {figures.target}: "
                + ("met" if figures.target_met else "not met"),
            ),
        )
        for label, figure, how in rows:
            out.print(f"    {label:<28} {figure}   ({how})")
    in_process = result.in_process
    speedups = ", ".join(
        f"{result.in_process_speedup(figures):.1f}× the {figures.placement} match's"
        for figures in result.placements
    )
    out.print(
        f"  in-process: three Python bot objects (random legal actions) seated in the arena's "
        f"process, with the game log\n"
        f"    {'in-process match':<28} {in_process.deals_per_second:8,.0f} deals/s   "
        f"({speedups}; {in_process.decision_us:.1f} µs per decision)"
    )


def _tournament_bench(blocks: int, rounds: int, concurrency: int, json_output: bool) -> None:
    if blocks < 1 or rounds < 1:
        fail("--blocks and --rounds must be at least 1")
    if concurrency < 2:
        fail(f"--concurrency must be at least 2 to compare with 1, not {concurrency}")
    if not json_output:
        out.print(
            f"round-robin of the bundled bots, {blocks} duplicate blocks a table, played "
            f"{rounds} times with --concurrency 1 and {rounds} times with {concurrency}, "
            "alternately …"
        )
    result = run_tournament_bench(blocks=blocks, rounds=rounds, concurrency=concurrency)
    if json_output:
        print_json(result.to_dict())
        return
    out.print(
        f"{', '.join(result.bots)}: {result.tables} tables, {result.deals:,} deals a tournament"
    )
    for label, values, median in (
        ("--concurrency 1", result.serial, result.serial_median),
        (f"--concurrency {result.concurrency}", result.parallel, result.parallel_median),
    ):
        each = ", ".join(f"{v:,.0f}" for v in values)
        out.print(f"  {label:<16} median {median:7,.1f} deals/s  (rounds: {each})")
    out.print(
        f"  speed-up {result.speedup:.2f}× with {result.concurrency} tables at a time "
        f"on {os.cpu_count()} CPU(s)"
    )
