"""The report page's HTML pieces: text from a log escaped for the page, table cells, headings
and tables, and links to a deal of the viewer.

Every text a log (or a file beside it) holds is crafted by someone else: it reaches the page
only through :func:`text` (HTML text and attribute values) or :func:`deal_href` (a link's
``href``), so that no name, message or match id becomes markup. Shared by the page
(:mod:`~zole_arena.report.page`) and its sections that live apart
(:mod:`~zole_arena.report.fairplay_section`).
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from urllib.parse import quote

from zole_arena.report.words import visible

__all__ = ["cell", "deal_href", "deal_key", "heading", "plural", "table", "text", "wide"]


def text(value: str) -> str:
    """Text from a log (or ours) for the page: invisible characters made visible, markup
    escaped (also for an attribute's value: quotes become entities)."""
    return escape(visible(value))


def cell(content: str, sort: float | str | None = None, cls: str = "") -> str:
    """A table cell of ready-made ``content``; ``sort`` is what the column sorts by (numbers
    as numbers)."""
    attributes = ""
    if sort is not None:
        attributes += f' data-sort="{text(str(sort))}"'
    if cls:
        attributes += f' class="{cls}"'
    return f"<td{attributes}>{content}</td>"


def heading(title: str, tip: str, cls: str = "") -> str:
    """A column heading with its tooltip (none when empty)."""
    attributes = (f' title="{text(tip)}"' if tip else "") + (f' class="{cls}"' if cls else "")
    return f"<th{attributes}>{text(title)}</th>"


def table(
    cls: str, headings: Iterable[tuple[str, str] | tuple[str, str, str]], rows: Iterable[str]
) -> str:
    """A table with ``(heading, tooltip)`` column headings (or ``(heading, tooltip, class)``)
    and ready-made rows."""
    head = "".join(heading(*columns) for columns in headings)
    return (
        f'<table class="{cls}"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
    )


def wide(content: str) -> str:
    """A table that may scroll sideways on a narrow screen, not the whole page."""
    return f'<div class="wide">{content}</div>'


def deal_key(match_id: str, deal: int) -> str:
    """A deal's name in the page's address (``#deal=…``): its match and number, so that a link
    names the same deal in any report of its log. The match as the page's script knows it
    (:func:`~zole_arena.report.words.visible`, the payload's ``match``)."""
    return f"{visible(match_id)}-{deal}"


def deal_href(match_id: str, deal: int, step: int | None = None) -> str:
    """A link to a deal (at ``step`` of the viewer, when given), ready for an ``href="…"``:
    the key percent-encoded as a URL's fragment (the script decodes it), then escaped for the
    attribute — whatever a forged log calls its match, it stays inside the link's value and
    names a deal."""
    at = "" if step is None else f"&step={step:d}"
    return escape(f"#deal={quote(deal_key(match_id, deal), safe='')}{at}", quote=True)


def plural(count: int, word: str, words: str = "") -> str:
    """A count with its noun: ``1 line``, ``2 lines``, ``3 analyses`` (``words`` when the
    plural is not the word and an s)."""
    return f"{count:,} {word if count == 1 else words or word + 's'}"
