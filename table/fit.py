"""Messages the real Discord accepts: every message the bot sends is measured, and cut where it is too long.

Discord refuses a whole message (400, Invalid Form Body) when one text in it is over its limit: content 2,000
characters; an embed's title 256, description 4,096, field names 256 and values 1,024, footer 2,048, author 256, and
6,000 for all of an embed's texts together; a button's label 80. A refused board edit leaves the old board with its
buttons, so texts that grow with the game (a turn log) must never get there. ``fit`` is applied at the edge, to every
message just before it is sent (``table.wire``, ``table.answer``), in whatever language it was rendered.

A text is cut at a line boundary and says so with a line of its own, "…" (the same in every language): at the end
(``cut``), or at the start for a log whose newest lines matter most (``cut(..., keep_last=True)``). A single line too
long for the limit (a log written as one paragraph) is cut between words, with "…" where the rest was.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord

from table.buttons import Buttons

CONTENT = 2000
EMBED_TOTAL = 6000
TITLE = 256
DESCRIPTION = 4096
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
LABEL = 80
MORE = "…"


def cut(text: str, limit: int, *, keep_last: bool = False) -> str:
    """``text`` if it fits in ``limit`` characters; else as many whole lines as fit with a "…" line in place of the
    rest: the first lines, or the last ones (``keep_last``). A single line too long for the limit is cut inside."""
    if len(text) <= limit:
        return text
    rows = text.split("\n")
    if keep_last:
        rows.reverse()
    kept: list[str] = []
    room = limit - len(MORE)
    for row in rows:
        if len(row) + 1 > room:
            break
        kept.append(row)
        room -= len(row) + 1
    if not kept:
        # Not even one whole line fits (a log written as one paragraph): that line itself, cut between words.
        return _cut_line(rows[0], limit, keep_last=keep_last)
    if keep_last:
        kept.reverse()
        return "\n".join([MORE, *kept])
    return "\n".join([*kept, MORE])


def _cut_line(row: str, limit: int, *, keep_last: bool) -> str:
    room = max(limit - len(MORE) - 1, 0)
    if keep_last:
        tail = row[len(row) - room :]
        start = tail.find(" ")
        return f"{MORE} {tail[start + 1 :] if 0 <= start < room // 2 else tail}"
    head = row[:room]
    end = head.rfind(" ")
    return f"{head[:end] if end > room // 2 else head} {MORE}"


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """``embed`` itself if it is within Discord's limits, else a copy with its texts cut: each to its own limit, then
    the description, then the fields' values (last first), until the whole is within 6,000."""
    data: dict[str, Any] = embed.to_dict()  # type: ignore[assignment]
    if _embed_size(data) <= EMBED_TOTAL and _within_limits(data):
        return embed
    if "title" in data:
        data["title"] = cut(data["title"], TITLE)
    if "description" in data:
        data["description"] = cut(data["description"], DESCRIPTION)
    for fld in data.get("fields", ()):
        fld["name"] = cut(fld["name"], FIELD_NAME)
        fld["value"] = cut(fld["value"], FIELD_VALUE)
    if "footer" in data and "text" in data["footer"]:
        data["footer"]["text"] = cut(data["footer"]["text"], FOOTER)
    if "author" in data and "name" in data["author"]:
        data["author"]["name"] = cut(data["author"]["name"], AUTHOR)
    over = _embed_size(data) - EMBED_TOTAL
    texts: list[tuple[dict[str, Any], str]] = [(f, "value") for f in reversed(data.get("fields", ()))]
    if "description" in data:
        texts.insert(0, (data, "description"))
    for holder, key in texts:
        if over <= 0:
            break
        before = len(holder[key])
        holder[key] = cut(holder[key], max(len(MORE), before - over))
        over -= before - len(holder[key])
    return discord.Embed.from_dict(data)


def _within_limits(data: dict[str, Any]) -> bool:
    return (
        len(data.get("title", "")) <= TITLE
        and len(data.get("description", "")) <= DESCRIPTION
        and all(len(f["name"]) <= FIELD_NAME and len(f["value"]) <= FIELD_VALUE for f in data.get("fields", ()))
        and len(data.get("footer", {}).get("text", "")) <= FOOTER
        and len(data.get("author", {}).get("name", "")) <= AUTHOR
    )


def _embed_size(data: dict[str, Any]) -> int:
    """What Discord counts against an embed's 6,000 characters."""
    return (
        len(data.get("title", ""))
        + len(data.get("description", ""))
        + sum(len(f["name"]) + len(f["value"]) for f in data.get("fields", ()))
        + len(data.get("footer", {}).get("text", ""))
        + len(data.get("author", {}).get("name", ""))
    )


def fit(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` (keyword arguments of a send or an edit) with every text within Discord's limits. The caller's
    dict is left as it is; buttons whose label is too long are shortened in place (a view is built per message)."""
    fitted = dict(message)
    content = fitted.get("content")
    if isinstance(content, str) and len(content) > CONTENT:
        fitted["content"] = cut(content, CONTENT)
    if isinstance(fitted.get("embed"), discord.Embed):
        fitted["embed"] = fit_embed(fitted["embed"])
    if fitted.get("embeds"):
        fitted["embeds"] = [fit_embed(e) if isinstance(e, discord.Embed) else e for e in fitted["embeds"]]
    view = fitted.get("view")
    if isinstance(view, Buttons):
        view.presses = [replace(p, label=cut(p.label, LABEL)) if len(p.label) > LABEL else p for p in view.presses]
    if isinstance(view, discord.ui.View):
        for item in view.children:
            label = getattr(item, "label", None)
            if isinstance(item, discord.ui.Button) and label is not None and len(label) > LABEL:
                item.label = cut(label, LABEL)
    return fitted
