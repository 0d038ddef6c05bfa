"""``table.fit``: every text cut to Discord's limits at a line boundary, under or over a "…" line."""

from __future__ import annotations

import discord
import pytest

from table.fit import CONTENT, EMBED_TOTAL, MORE, cut, fit, fit_embed

LOG = "\n".join(f"Turn {n}: ana laid {n} on A." for n in range(200))


def test_a_text_that_fits_is_left_as_it_is() -> None:
    assert cut("short\ntext", 10) == "short\ntext"
    assert fit({"content": "hi"}) == {"content": "hi"}


@pytest.mark.parametrize("limit", [50, 1024, CONTENT])
def test_a_long_text_keeps_its_first_whole_lines_then_says_more(limit: int) -> None:
    text = cut(LOG, limit)
    assert len(text) <= limit
    *kept, last = text.split("\n")
    assert last == MORE
    assert LOG.startswith("\n".join(kept) + "\n")


@pytest.mark.parametrize("limit", [50, CONTENT])
def test_a_log_keeps_its_last_whole_lines(limit: int) -> None:
    text = cut(LOG, limit, keep_last=True)
    assert len(text) <= limit
    first, *kept = text.split("\n")
    assert first == MORE
    assert LOG.endswith("\n" + "\n".join(kept))
    assert kept[-1] == "Turn 199: ana laid 199 on A."


def test_one_long_line_is_cut_between_words() -> None:
    paragraph = " ".join(f"ana laid {n} on A." for n in range(300))
    head, tail = cut(paragraph, 200), cut(paragraph, 200, keep_last=True)
    assert len(head) <= 200
    assert len(tail) <= 200
    assert head.endswith(" " + MORE)
    assert paragraph.startswith(head[: -len(MORE) - 1] + " ")
    assert tail.startswith(MORE + " ")
    assert paragraph.endswith(" " + tail[len(MORE) + 1 :])
    assert tail.endswith("ana laid 299 on A.")
    assert len(cut("x" * 300, 100)) == 100


def test_every_text_of_an_embed_is_cut_to_its_limit_and_the_whole_to_6000() -> None:
    embed = discord.Embed(title="t" * 300, description=LOG * 3).set_footer(text="f" * 3000).set_author(name="a" * 300)
    for _n in range(5):
        embed.add_field(name="n" * 300, value=LOG)
    fitted = fit_embed(embed).to_dict()
    assert len(fitted["title"]) <= 256
    assert len(fitted["description"]) <= 4096
    assert len(fitted["footer"]["text"]) <= 2048
    assert len(fitted["author"]["name"]) <= 256
    assert all(len(f["name"]) <= 256 and len(f["value"]) <= 1024 for f in fitted["fields"])
    total = sum(len(f["name"]) + len(f["value"]) for f in fitted["fields"])
    total += len(fitted["title"]) + len(fitted["description"]) + len(fitted["footer"]["text"]) + 256
    assert total <= EMBED_TOTAL


def test_an_embed_within_the_limits_is_the_same_object() -> None:
    embed = discord.Embed(title="Board", description="A ↑ 1").add_field(name="Draw pile", value="90 cards")
    assert fit_embed(embed) is embed


def test_a_message_is_fitted_whole_and_the_callers_dict_kept() -> None:
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="l" * 100, custom_id="x"))
    message = {"content": LOG, "embed": discord.Embed(description=LOG * 3), "view": view}
    fitted = fit(message)
    assert message["content"] == LOG
    assert len(fitted["content"]) <= CONTENT
    assert len(fitted["embed"].description) <= 4096
    assert len(view.children[0].label) <= 80  # type: ignore[attr-defined]
