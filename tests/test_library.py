"""The library as a Python program uses it: the names ``import zole_arena`` gives (lazily, so
that the package and the command start fast), and every example of ``docs/library.md``, run in
order with real bots in real processes."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import zole_arena
from zole_arena.arena.stop import StopReason

PY = sys.executable
ROOT = Path(__file__).resolve().parents[1]
#: The line before an example of the page's section on bots (run apart from the others).
NEEDS_BOT = "<!-- example: a bot -->"


def test_importing_the_package_imports_none_of_its_modules() -> None:
    code = "import sys, zole_arena; print([m for m in sys.modules if m.startswith('zole_a')])"
    proc = subprocess.run([PY, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "['zole_arena']"
    # Not even typing, for its TYPE_CHECKING (-S: no site packages, which might import it).
    code = "import sys, zole_arena; print(zole_arena.__file__, 'typing' in sys.modules)"
    proc = subprocess.run(
        [PY, "-S", "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert proc.stdout.split() == [str(ROOT / "zole_arena" / "__init__.py"), "False"]


def test_the_install_declares_every_package_and_only_them() -> None:
    """``pyproject.toml`` lists the packages an install copies: a package left out (or a
    malformed name) breaks ``pip install`` on a fresh machine, though not in a checkout whose
    older editable install still finds the folder."""
    import tomllib

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"
    ]
    on_disk = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "zole_arena").rglob("__init__.py")
    }
    assert sorted(declared) == sorted(on_disk | {"zole_arena_bots"})


def test_every_name_comes_from_its_module_on_first_use() -> None:
    names = zole_arena._NAMES
    assert set(zole_arena.__all__) == {"__version__", *names}
    listed = dir(zole_arena)
    for name, module in names.items():
        assert name in listed
        assert getattr(zole_arena, name) is getattr(importlib.import_module(module), name)
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        zole_arena.Nothing  # noqa: B018
    with pytest.raises(ImportError):
        exec("from zole_arena import Nothing", {})


def test_type_checkers_see_every_name_where_it_comes_from() -> None:
    """The ``TYPE_CHECKING`` imports (what mypy reads) and the table of lazy names agree."""
    tree = ast.parse((ROOT / "zole_arena" / "__init__.py").read_text())
    block = next(
        node
        for node in tree.body
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name)
        and node.test.id == "TYPE_CHECKING"
    )  # fmt: skip
    seen: dict[str, str] = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom) and node.module is not None
        for alias in node.names:
            assert alias.asname == alias.name  # re-exported as itself
            seen[alias.name] = node.module
    assert seen == dict(zole_arena._NAMES)


def test_a_typed_program_type_checks_against_the_package(tmp_path: Path) -> None:
    program = tmp_path / "uses.py"
    program.write_text(
        "from zole_arena import Match, MatchSettings, load_rules\n"
        "settings = MatchSettings(rules=load_rules('wpt'), seed=1, deals=1)\n"
        "reveal_type(Match)\n"
        "Match([], settings, log=3.5)\n"  # a float is neither a path nor a sink
    )
    proc = subprocess.run(
        [PY, "-m", "mypy", "--no-incremental", "--strict", str(program)],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )  # fmt: skip
    said = proc.stdout
    assert 'Revealed type is "def (players:' in said, said
    assert 'Argument "log" to "Match" has incompatible type "float"' in said, said
    assert said.count("error:") == 1, said


# -- docs/library.md ---------------------------------------------------------------------------


def _examples() -> list[tuple[int, str, bool]]:
    """The page's Python examples: (line, code, whether it needs the bot class)."""
    lines = (ROOT / "docs" / "library.md").read_text().splitlines()
    examples = []
    start = None
    for number, line in enumerate(lines, start=1):
        if start is None and line == "```python":
            start = number
        elif start is not None and line == "```":
            before = next((text for text in reversed(lines[: start - 1]) if text.strip()), "")
            code = "\n".join(lines[start : number - 1]) + "\n"
            examples.append((start, code, before == NEEDS_BOT))
            start = None
    assert start is None, f"docs/library.md:{start}: an example is not closed"
    return examples


def _run(examples: list[tuple[int, str, bool]]) -> dict[str, Any]:
    """Run examples in order in one namespace, each compiled under its place in the page."""
    namespace: dict[str, Any] = {"__name__": "__main__"}
    for line, code, _ in examples:
        exec(compile("\n" * line + code, "docs/library.md", "exec"), namespace)
    return namespace


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_the_library_page_examples_run_and_do_what_it_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    examples = _examples()
    assert len(examples) >= 9
    monkeypatch.chdir(tmp_path)
    ns = _run([example for example in examples if not example[2]])
    said = capsys.readouterr().out
    # A match, its deals, a match played now and later: whole logs with one header each.
    for log in ("match.jsonl", "later.jsonl"):
        records = _records(tmp_path / log)
        assert [r["type"] for r in records] == ["match"] + ["deal"] * 6, log
        assert [r["deal"] for r in records[1:]] == [1, 2, 3, 4, 5, 6]
    assert re.search(r"^RuleBot#2 +[+-]\d+ points in 6 deals$", said, re.M), said
    assert ns["match"].stopped is None and ns["match"].summary().deals == 6
    assert ns["begun"].done == 2 and ns["summary"].deals == 6
    # The log read back, verified, rated.
    assert len(ns["deals"]) == 6 and ns["problems"] == []
    assert ns["report"].deals == 6 and not ns["report"].failed
    assert "6 deals: ok sha256:" in said
    assert {r.name for r in ns["ratings"].ratings} == {"Random", "RuleBot", "RuleBot#2"}
    # The report of both logs: a page, and its figures.
    assert (tmp_path / "report.html").read_text().startswith("<!DOCTYPE html>")
    assert len(ns["data"].deals) == 12 and {bot.name for bot in ns["data"].bots} == {
        "Random", "RuleBot", "RuleBot#2"}  # fmt: skip
    # The analysis of the first match: every deal, each bot's figures, its worst decision.
    assert len(ns["run"].deals) == 6 and ns["run"].solved == 6
    assert (tmp_path / "match.analysis.jsonl").exists()
    assert ns["worst"].loss == max(d.loss for a in ns["run"].deals for d in a.decisions)
    assert re.search(r"^RuleBot +loses \d+\.\d\d a decision \(\d+\)$", said, re.M), said
    # The tournament: four tables of a duplicate block each.
    assert ns["standings"].deals == 4 * 6 and ns["standings"].stopped is None
    assert sorted(ns["standings"].ranking()) == ["alice", "bob", "carol", "dan"]
    assert (tmp_path / "tournament.jsonl").exists()
    # A table of four: each of the four sat 2 of the 8 deals out; two rounds of it.
    assert re.search(r"^2 deals sat out$", said, re.M), said
    assert ns["table"].summary().deals == 8 and ns["table"].settles
    assert ns["event"].rounds is not None and len(ns["event"].rounds.rounds) == 2
    assert sum(ns["event"].rounds.big) == 2 * 12 or 0 in ns["event"].rounds.big
    assert _records(tmp_path / "rounds.jsonl")[0]["tournament_format"] == "lzf"
    # The head-to-head test: decided, or stopped at its most blocks.
    result = ns["result"]
    assert 1 <= result.blocks <= 3 and result.deals_played == 12 * result.blocks
    assert result.decision is not None or result.stopped.reason is StopReason.MAX_BLOCKS
    # The rules engine.
    assert ns["deal"].result is not None and sum(ns["deal"].result.scores) == 0


def test_the_library_page_python_bot_examples_run() -> None:
    needing = [example for example in _examples() if example[2]]
    assert needing, f"no example marked {NEEDS_BOT}"
    ns = _run(needing)
    assert ns["summary"].deals == 6 and ns["summary"].players[0].name == "FirstLegal"


def test_the_readme_library_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    readme = (ROOT / "README.md").read_text()
    start = readme.index("```python\n", readme.index("## The library")) + len("```python\n")
    namespace: dict[str, Any] = {}
    exec(compile(readme[start : readme.index("```", start)], "README.md", "exec"), namespace)
    assert namespace["deal"].result is not None
    assert "SeatView(seat=0" in capsys.readouterr().out
