"""A log's results read with the library: ``read_match`` and ``read_tournament`` count the
records as the running match and tournament counted them, and start no bot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from zole_arena import (
    Entrant,
    Match,
    MatchSettings,
    Tournament,
    TournamentSettings,
    bundled_command,
    load_rules,
    read_match,
    read_tournament,
)
from zole_arena.arena.settings import MatchError
from zole_arena.events.schedule import TournamentError
from zole_arena.players.session import BotConfig


def _summary_dict(summary: object) -> dict[str, object]:
    data = summary.to_dict()  # type: ignore[attr-defined]
    return {key: value for key, value in data.items() if key not in ("log", "digest")}


def test_a_match_read_from_its_log_is_the_match_that_played(tmp_path: Path) -> None:
    # A table of four with lzf rules: pules often stand at its end, and are settled.
    kinds = ("crandom", "cbot", "crandom", "random")
    bots = [
        BotConfig(bundled_command(kind), name=name)
        for kind, name in zip(kinds, "abcd", strict=True)
    ]
    for seed in range(1, 30):  # the first deals that leave a personal pule standing
        log = tmp_path / f"m{seed}.jsonl"
        played = Match(bots, MatchSettings(rules=load_rules("lzf"), seed=seed, deals=8), log).run()
        if '"type":"settle"' in log.read_text():
            break
    results = read_match(log)
    assert _summary_dict(results.summary()) == _summary_dict(played)
    assert results.deals == 8 and results.disqualified() == []
    assert sum(stats.points for stats in results.tally.stats) == 0
    # Cut before its settle record: the settle is computed again from the deals' results.
    lines = log.read_text().splitlines(keepends=True)
    settled = [line for line in lines if '"type":"settle"' in line]
    assert settled, "no deals of 29 seeds left a personal pule standing"
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(line for line in lines if line not in settled))
    again = read_match(cut)
    assert again.settled is not None
    assert json.loads(settled[0])["scores"] == list(again.settled.scores)
    assert _summary_dict(again.summary()) == _summary_dict(played)


def test_a_tournament_read_from_its_log_is_the_tournament_that_played(tmp_path: Path) -> None:
    names = ("a", "b", "c", "d")
    entrants = tuple(Entrant(name, bundled_command("crandom")) for name in names)
    each_table = MatchSettings(rules=load_rules("wpt"), seed=3, deals=1, duplicate=True)
    log = tmp_path / "t.jsonl"
    played = Tournament(TournamentSettings(entrants, each_table), log).run()
    state = read_tournament(log)
    read = state.summary(played.log, played.digest)
    assert read.to_dict() == played.to_dict()
    assert [t.deals for t in state.tables] == [6, 6, 6, 6]
    assert sum(sum(state.points(t)) for t in state.tables) == 0


def test_reading_a_log_that_is_not_its_kind_says_so(tmp_path: Path) -> None:
    entrants = tuple(Entrant(name, bundled_command("crandom")) for name in "xyz")
    log = tmp_path / "t.jsonl"
    one = MatchSettings(rules=load_rules("wpt"), seed=1, deals=1)
    Tournament(TournamentSettings(entrants, one), log).run()
    with pytest.raises(MatchError, match="is a tournament log"):
        read_match(log)
    match_log = tmp_path / "m.jsonl"
    bots = [BotConfig(bundled_command("crandom"), name=name) for name in "abc"]
    Match(bots, one, match_log).run()
    with pytest.raises(TournamentError, match="not a tournament log"):
        read_tournament(match_log)
