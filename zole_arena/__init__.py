"""zole-arena: run bot competitions in Zole, the Latvian three-player trick-taking card game.

The package is a library first and a command line second. The names most programs need come
straight from it — ``from zole_arena import Match, MatchSettings, BotConfig, load_rules`` —
and ``docs/library.md`` shows them at work: play a match, go through its deals, read, verify
and rate logs, run a tournament or a head-to-head test, use the rules engine, write a bot. They
are imported when first used, so that ``import zole_arena`` (and the command's start) stays
fast.

Its sub-packages are layers, each importing only those below it (a contract in
``pyproject.toml`` checks it):

* :mod:`zole_arena.cli` — the ``zole-arena`` command;
* :mod:`zole_arena.bench` — benchmarks;
* :mod:`zole_arena.events` — tournaments and head-to-head tests;
* :mod:`zole_arena.arena` — the referee, matches, verifying logs, the conformance check; and
  :mod:`zole_arena.analysis` — the open-card value of every decision of logged deals;
* :mod:`zole_arena.stats` and :mod:`zole_arena.players` — ratings and the test's mathematics;
  bot processes, sessions, the bundled bots and human play;
* :mod:`zole_arena.protocol`, :mod:`zole_arena.records` and :mod:`zole_arena.isolation` —
  protocol v1 as text; game records; the bots' sandbox and limits;
* :mod:`zole_arena.game` — the pure rules engine;
* :mod:`zole_arena.errors` — the errors a user sees.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

TYPE_CHECKING = False  # what typing.TYPE_CHECKING is at run time, without importing typing
if TYPE_CHECKING:
    from zole_arena.analysis.deal import analyse_deal as analyse_deal
    from zole_arena.analysis.model import DealAnalysis as DealAnalysis
    from zole_arena.analysis.model import Decision as Decision
    from zole_arena.analysis.run import AnalysisRun as AnalysisRun
    from zole_arena.analysis.run import analyse_logs as analyse_logs
    from zole_arena.analysis.solver import Solver as Solver
    from zole_arena.analysis.store import analysis_path as analysis_path
    from zole_arena.analysis.store import read_analysis as read_analysis
    from zole_arena.analysis.summary import BotAnalysis as BotAnalysis
    from zole_arena.analysis.summary import summarise as summarise
    from zole_arena.arena.match import Match as Match
    from zole_arena.arena.match import RecordSink as RecordSink
    from zole_arena.arena.referee import FaultPolicy as FaultPolicy
    from zole_arena.arena.results import MatchResults as MatchResults
    from zole_arena.arena.results import read_match as read_match
    from zole_arena.arena.resume import resume_match as resume_match
    from zole_arena.arena.settings import MatchSettings as MatchSettings
    from zole_arena.arena.stop import Stop as Stop
    from zole_arena.arena.stop import StopReason as StopReason
    from zole_arena.arena.summary import DealReport as DealReport
    from zole_arena.arena.summary import Summary as Summary
    from zole_arena.arena.verify import VerifyReport as VerifyReport
    from zole_arena.arena.verify import verify_log as verify_log
    from zole_arena.catalogue.bundled import bundled_command as bundled_command
    from zole_arena.errors import ZoleError as ZoleError
    from zole_arena.events.resume import read_tournament as read_tournament
    from zole_arena.events.resume import resume_tournament as resume_tournament
    from zole_arena.events.schedule import Entrant as Entrant
    from zole_arena.events.settings import TournamentSettings as TournamentSettings
    from zole_arena.events.sprt import HeadToHead as HeadToHead
    from zole_arena.events.sprt import SprtResult as SprtResult
    from zole_arena.events.standings import TournamentSummary as TournamentSummary
    from zole_arena.events.state import TournamentState as TournamentState
    from zole_arena.events.tournament import Tournament as Tournament
    from zole_arena.game.actions import Contract as Contract
    from zole_arena.game.cards import Card as Card
    from zole_arena.game.clock import TimeControl as TimeControl
    from zole_arena.game.rules import Rules as Rules
    from zole_arena.game.rules import load_rules as load_rules
    from zole_arena.game.state import DealResult as DealResult
    from zole_arena.game.state import DealState as DealState
    from zole_arena.game.state import SeatView as SeatView
    from zole_arena.game.table import Seating as Seating
    from zole_arena.game.table import TableSheet as TableSheet
    from zole_arena.game.table import score_at_table as score_at_table
    from zole_arena.isolation.sandbox import Sandbox as Sandbox
    from zole_arena.players.limits import Limits as Limits
    from zole_arena.players.session import BotConfig as BotConfig
    from zole_arena.records.model import DealRecord as DealRecord
    from zole_arena.records.model import MatchHeader as MatchHeader
    from zole_arena.records.model import SettleRecord as SettleRecord
    from zole_arena.records.model import TableDeal as TableDeal
    from zole_arena.records.model import TournamentHeader as TournamentHeader
    from zole_arena.records.reader import LogReader as LogReader
    from zole_arena.records.reader import read_log as read_log
    from zole_arena.records.writer import LogWriter as LogWriter
    from zole_arena.sdk.bot import Bot as Bot
    from zole_arena.sdk.bot import run_bot as run_bot
    from zole_arena.sdk.values import BotView as BotView
    from zole_arena.stats.bigpoints import big_points as big_points
    from zole_arena.stats.ratings import RatingList as RatingList
    from zole_arena.stats.ratings import rate as rate
    from zole_arena.stats.ratings import read_logs as read_logs
    from zole_arena.stats.reseating import reseat as reseat
    from zole_arena.stats.rounds import RoundStandings as RoundStandings
    from zole_arena.stats.sprt import SprtSettings as SprtSettings

#: Each name this package gives, and the module it comes from.
_NAMES: dict[str, str] = {
    # The rules engine.
    "Card": "zole_arena.game.cards",
    "Contract": "zole_arena.game.actions",
    "DealResult": "zole_arena.game.state",
    "DealState": "zole_arena.game.state",
    "Rules": "zole_arena.game.rules",
    "SeatView": "zole_arena.game.state",
    "TimeControl": "zole_arena.game.clock",
    "load_rules": "zole_arena.game.rules",
    # Tables of four: who plays a deal, the table's score sheet (docs/rules.md §8).
    "Seating": "zole_arena.game.table",
    "TableSheet": "zole_arena.game.table",
    "score_at_table": "zole_arena.game.table",
    # Bots: how to start one, its limits and sandbox; bots written in Python.
    "Bot": "zole_arena.sdk.bot",
    "BotConfig": "zole_arena.players.session",
    "BotView": "zole_arena.sdk.values",
    "Limits": "zole_arena.players.limits",
    "Sandbox": "zole_arena.isolation.sandbox",
    "bundled_command": "zole_arena.catalogue.bundled",
    "run_bot": "zole_arena.sdk.bot",
    # A match and what it reports.
    "DealReport": "zole_arena.arena.summary",
    "FaultPolicy": "zole_arena.arena.referee",
    "Match": "zole_arena.arena.match",
    "MatchSettings": "zole_arena.arena.settings",
    "RecordSink": "zole_arena.arena.match",
    "Stop": "zole_arena.arena.stop",
    "StopReason": "zole_arena.arena.stop",
    "MatchResults": "zole_arena.arena.results",
    "Summary": "zole_arena.arena.summary",
    "read_match": "zole_arena.arena.results",
    "resume_match": "zole_arena.arena.resume",
    # Logs: reading, writing, verifying, rating.
    "LogReader": "zole_arena.records.reader",
    "LogWriter": "zole_arena.records.writer",
    "DealRecord": "zole_arena.records.model",
    "MatchHeader": "zole_arena.records.model",
    "SettleRecord": "zole_arena.records.model",
    "TableDeal": "zole_arena.records.model",
    "TournamentHeader": "zole_arena.records.model",
    "RatingList": "zole_arena.stats.ratings",
    "VerifyReport": "zole_arena.arena.verify",
    "rate": "zole_arena.stats.ratings",
    "read_log": "zole_arena.records.reader",
    "read_logs": "zole_arena.stats.ratings",
    "verify_log": "zole_arena.arena.verify",
    # Analysis: the open-card value of every decision (docs/analysis.md).
    "AnalysisRun": "zole_arena.analysis.run",
    "BotAnalysis": "zole_arena.analysis.summary",
    "DealAnalysis": "zole_arena.analysis.model",
    "Decision": "zole_arena.analysis.model",
    "Solver": "zole_arena.analysis.solver",
    "analyse_deal": "zole_arena.analysis.deal",
    "analyse_logs": "zole_arena.analysis.run",
    "analysis_path": "zole_arena.analysis.store",
    "read_analysis": "zole_arena.analysis.store",
    "summarise": "zole_arena.analysis.summary",
    # Tournaments and head-to-head tests.
    "Entrant": "zole_arena.events.schedule",
    "HeadToHead": "zole_arena.events.sprt",
    "SprtResult": "zole_arena.events.sprt",
    "SprtSettings": "zole_arena.stats.sprt",
    "Tournament": "zole_arena.events.tournament",
    "TournamentSettings": "zole_arena.events.settings",
    "TournamentState": "zole_arena.events.state",
    "TournamentSummary": "zole_arena.events.standings",
    "read_tournament": "zole_arena.events.resume",
    "resume_tournament": "zole_arena.events.resume",
    # The lzf format's rounds: big points, reseating (docs/rules.md §9).
    "RoundStandings": "zole_arena.stats.rounds",
    "big_points": "zole_arena.stats.bigpoints",
    "reseat": "zole_arena.stats.reseating",
    # The base of every error a user sees.
    "ZoleError": "zole_arena.errors",
}

__all__ = ["__version__", *sorted(_NAMES)]


def __getattr__(name: str) -> object:
    """Import a name of :data:`_NAMES` from its module on first use, and keep it."""
    module = _NAMES.get(name)
    if module is None:
        raise AttributeError(f"module 'zole_arena' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_NAMES})
