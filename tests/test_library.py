"""The library as a Python program uses it: the names ``import zole_arena`` gives (lazily, so
that the package and the command start fast)."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

import zole_arena

PY = sys.executable
ROOT = Path(__file__).resolve().parents[1]
#: The Python bot class's module, written apart: its names resolve once it is there.
BOT_MODULE = "zole_arena.players.bot"


def _has_bot_module() -> bool:
    return importlib.util.find_spec(BOT_MODULE) is not None


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


def test_every_name_comes_from_its_module_on_first_use() -> None:
    names = zole_arena._NAMES
    assert set(zole_arena.__all__) == {"__version__"} | {
        name for name, module in names.items() if module != BOT_MODULE
    }
    listed = dir(zole_arena)
    for name, module in names.items():
        assert name in listed
        if module == BOT_MODULE and not _has_bot_module():
            with pytest.raises(AttributeError, match=f"needs {BOT_MODULE}"):
                getattr(zole_arena, name)
            continue
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
    expected = dict(zole_arena._NAMES)
    if not _has_bot_module():
        expected = {n: m for n, m in expected.items() if m != BOT_MODULE}
    assert seen == expected


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
