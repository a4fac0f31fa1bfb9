"""``zole-arena check`` at a table of four, through the real command line.

The check seats four copies of the bot at a table of four and plays four deals, the dealer
sitting each out: one item for the copies that play (``newdeal``/``result`` with the table
fields), one for the copy that sits out (``sitout``, then ``isready`` → ``readyok``, then the
next deal). The runs are independent, so a module fixture starts them all at once, each a real
``python -m zole_arena check`` process, and each test reads one run's PASS/FAIL/SKIP lines:

- a bundled bot passes both items, and its transcript shows what they sent it;
- a bot that exits when told ``sitout`` fails the sitting-out item, and only that item;
- a bot that says ``id tables 3`` at its handshake gets both items skipped, and check passes
  (it would crash if it were seated at four: it exits on any table field).
"""

from __future__ import annotations

import dataclasses
import re
import subprocess
from pathlib import Path

import pytest
from clihelp import PLAYS_FIRST_LEGAL, PY, zoles

from zole_arena.arena.check import FOUR_PLAYING, FOUR_SITTING
from zole_arena.protocol import plays_at

FAST = ("--movetime", "300")
#: The items before the table of four: start, options, ping and 14 decisions.
FIRST_FOUR_ITEM = 18


@dataclasses.dataclass(frozen=True)
class Item:
    mark: str
    """PASS, FAIL or SKIP."""
    name: str
    detail: str
    offending: str | None = None


def items_of(stdout: str) -> dict[int, Item]:
    """The items a check printed, by number (with the offending line of a failure)."""
    items: dict[int, Item] = {}
    last: int | None = None
    for line in stdout.splitlines():
        match = re.match(r"^(PASS|FAIL|SKIP) +(\d+) (.*?): (.*)$", line)
        if match:
            last = int(match[2])
            items[last] = Item(match[1], match[3], match[4])
            continue
        offending = re.match(r"^ +offending line: (.*)$", line)
        if offending and last is not None:
            items[last] = dataclasses.replace(items[last], offending=offending[1])
    return items


def bot_script(folder: Path, name: str, handshake: str, on_line: str) -> str:
    """A bot that plays the first legal action, with ``handshake`` lines before ``zoleok`` and
    ``on_line`` (Python statements, ``line`` in scope) run on every line it reads first; the
    command that runs it."""
    path = folder / f"{name}.py"
    path.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        f"{on_line}"
        "    if line.startswith('zole '):\n"
        f"        print('id name {name}', {handshake!r}, 'zoleok 1', sep='\\n', flush=True)\n"
        "    elif line.startswith('isready'):\n"
        "        print('readyok', flush=True)\n" + PLAYS_FIRST_LEGAL
    )
    return f"{PY} {path}"


RUNS = ("rulebot", "dies_on_sitout", "tables_three")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, subprocess.CompletedProcess[str]]:
    """Each case's run of ``zole-arena check``, all at once."""
    folder = tmp_path_factory.mktemp("check_four")
    dies = bot_script(folder, "DiesOnSitout", "id author tests",
                      "    if line.startswith('sitout'):\n        sys.exit(3)\n")  # fmt: skip
    # Seated at four, it would crash at its first newdeal (or a sitout): it must never be.
    three = bot_script(folder, "OnlyThree", "id tables 3",
                       "    if 'tablesize' in line:\n        sys.exit(4)\n")  # fmt: skip
    transcript = folder / "rulebot.txt"
    done = zoles(
        ("check", "rulebot", *FAST, "--transcript", str(transcript)),
        ("check", dies, *FAST),
        ("check", three, *FAST),
        cwd=folder,
        timeout=120,
    )
    runs = dict(zip(RUNS, done, strict=True))
    for proc in runs.values():
        assert "Traceback" not in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    runs["rulebot transcript"] = subprocess.CompletedProcess([], 0, transcript.read_text(), "")
    return runs


def test_a_bundled_bot_passes_the_table_of_four_items(
    runs: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    proc = runs["rulebot"]
    assert proc.returncode == 0, proc.stdout + proc.stderr
    items = items_of(proc.stdout)
    assert all(item.mark == "PASS" for item in items.values()), proc.stdout
    playing, sitting = items[FIRST_FOUR_ITEM], items[FIRST_FOUR_ITEM + 1]
    assert (playing.name, sitting.name) == (FOUR_PLAYING, FOUR_SITTING)
    assert re.fullmatch(r"4 deals, each copy playing three, all played to the deal's end "
                        r"\((\w+, ){3}\w+\); table totals \[-?\d+(, -?\d+){3}\]",
                        playing.detail), playing  # fmt: skip
    totals = [int(t) for t in re.findall(r"-?\d+", playing.detail.rsplit("[", 1)[1])]
    assert sum(totals) == 0  # a table's scores are zero-sum
    assert sitting.detail.startswith("each of the 4 copies sat a deal out, was told 'sitout' "
                                     "and answered isready with readyok"), sitting  # fmt: skip
    assert f"all {len(items)} items passed" in proc.stdout


def test_the_table_of_four_items_send_what_a_match_at_four_sends(
    runs: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    """Each of the four sitters got ``sitout``, then ``isready`` at once, and answered it; the
    players got the table fields in ``newdeal`` and ``result``."""
    lines = runs["rulebot transcript"].stdout.splitlines()
    # "TIME >name[pid]: LINE" to a bot, "TIME <name[pid]: LINE" from it
    parsed = [m.groups() for line in lines
              if (m := re.match(r"^\S+ \S+ ([<>#])\S*\[(\d+)\]: (.*)$", line))]  # fmt: skip
    sitouts = [(i, pid, text) for i, (way, pid, text) in enumerate(parsed)
               if way == ">" and text.startswith("sitout ")]  # fmt: skip
    assert [text.split()[2] for _, _, text in sitouts] == ["1", "2", "3", "4"]  # deal numbers
    for (index, pid, text), dealer in zip(sitouts, (3, 0, 1, 2), strict=True):
        assert f" tablesize 4 tableseat {dealer} tabledealer {dealer} " in text, text
        after = [(way, line) for way, p, line in parsed[index + 1 :] if p == pid]
        assert after[:2] == [(">", "isready"), ("<", "readyok")], after[:3]
    newdeals = [text for way, _, text in parsed if way == ">" and text.startswith("newdeal ")]
    results = [text for way, _, text in parsed if way == ">" and text.startswith("result ")]
    at_four = [text for text in newdeals if " tablesize 4 " in text]
    assert len(at_four) == 12  # three players in each of four deals
    assert all(re.search(r" tableseat \d tabledealer \d tablescores \S+ tablepersonalpules \S+$",
                         text) for text in at_four), at_four  # fmt: skip
    assert len([text for text in results if " tabletotals " in text]) == 12


def test_a_bot_that_dies_on_sitout_fails_the_sitting_out_item(
    runs: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    proc = runs["dies_on_sitout"]
    assert proc.returncode == 1, proc.stdout + proc.stderr
    items = items_of(proc.stdout)
    failed = [number for number, item in items.items() if item.mark == "FAIL"]
    assert failed == [FIRST_FOUR_ITEM + 1], proc.stdout
    sitting = items[FIRST_FOUR_ITEM + 1]
    assert sitting.name == FOUR_SITTING
    assert sitting.detail.startswith(
        "table seat 3, which sat deal 1 out: after 'sitout', isready: crash: "
    ), sitting
    assert "exit code 3" in sitting.detail and "(and 3 more)" in sitting.detail, sitting
    # Each copy is started again after it died: the deals themselves are played.
    assert items[FIRST_FOUR_ITEM].mark == "PASS" and items[FIRST_FOUR_ITEM].name == FOUR_PLAYING
    assert f"1 of {len(items)} items failed" in proc.stdout


def test_a_bot_for_tables_of_three_gets_the_items_skipped(
    runs: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    proc = runs["tables_three"]
    assert proc.returncode == 0, proc.stdout + proc.stderr
    items = items_of(proc.stdout)
    skipped = {number: item for number, item in items.items() if item.mark == "SKIP"}
    assert list(skipped) == [FIRST_FOUR_ITEM, FIRST_FOUR_ITEM + 1], proc.stdout
    assert [item.name for item in skipped.values()] == [FOUR_PLAYING, FOUR_SITTING]
    for item in skipped.values():
        assert item.detail.startswith("skipped: the bot plays only at tables of 3 "), item
    assert all(item.mark == "PASS" for n, item in items.items() if n not in skipped)
    assert "2 items skipped: the bot plays only at tables of 3 " in proc.stdout
    assert f"all {len(items) - 2} items run passed" in proc.stdout


@pytest.mark.parametrize(
    ("said", "plays"),
    [(None, True), ("3", False), ("3,4", True), ("4", True), ("3, 4", True), (" 3 ", False)],
)
def test_a_bot_plays_at_four_unless_its_table_sizes_leave_four_out(
    said: str | None, plays: bool
) -> None:
    ids = {"name": "bot"} if said is None else {"name": "bot", "tables": said}
    assert plays_at(ids, 4) is plays
