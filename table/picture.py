"""Pictures where people would rather look than read: the drawing helpers a game's end picture is drawn with (The
Game's course lives beside its adapter, ``cogs.the_game_picture``), and results over time (/stats).

Drawn with Pillow (a maintained imaging library; see docs/architecture.md) into small PNGs, sent once as an
attachment: the end screen of a game carries one picture, never one per turn. A picture holds no words, so it reads
the same in every language: numbers, pile letters, arrows and symbols only, in Pillow's built-in font (no font file
to install). It has its own dark background, so it reads alike on Discord's dark and light themes.

Drawing is CPU work (tens of milliseconds): callers on the event loop run it in a thread.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 800, 450
SCALE = 2  # drawn at twice the size, then scaled down: smooth lines without an antialiasing renderer
COLOURS = 96  # the palette of the saved PNG: keeps it at a few tens of KB

BACKGROUND = (30, 33, 38)
PANEL = (40, 44, 51)
GRID = (58, 63, 72)
INK = (205, 209, 216)
FAINT = (140, 146, 156)
# The colours of Discord's coloured squares 🟦 🟧 🟩 🟪 🟥 🟨, so a text can name a team's colour in the chart.
TEAM_COLOURS = ((85, 172, 238), (244, 144, 12), (120, 177, 89), (170, 142, 214), (221, 46, 68), (253, 203, 88))
TEAM_SQUARES = ("🟦", "🟧", "🟩", "🟪", "🟥", "🟨")
OTHER_TEAMS = (150, 155, 165)
WON = (255, 215, 0)


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


@dataclass(frozen=True, slots=True)
class Frame:
    """A plotting area in picture coordinates (before scaling) and the value ranges it shows."""

    left: float
    top: float
    right: float
    bottom: float
    x_max: float
    y_min: float
    y_max: float

    def x(self, value: float) -> float:
        span = self.x_max or 1
        return SCALE * (self.left + (self.right - self.left) * value / span)

    def y(self, value: float) -> float:
        span = (self.y_max - self.y_min) or 1
        return SCALE * (self.bottom - (self.bottom - self.top) * (value - self.y_min) / span)

    def box(self) -> tuple[float, float, float, float]:
        return (SCALE * self.left, SCALE * self.top, SCALE * self.right, SCALE * self.bottom)


def canvas() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (WIDTH * SCALE, HEIGHT * SCALE), BACKGROUND)
    return image, ImageDraw.Draw(image)


def to_png(image: Image.Image) -> bytes:
    # A box filter and the fast octree palette: a few milliseconds each, where Lanczos and median cut take tens.
    small = image.reduce(SCALE)
    out = io.BytesIO()
    small.quantize(colors=COLOURS, method=Image.Quantize.FASTOCTREE).save(out, format="PNG")
    return out.getvalue()


def write(draw: ImageDraw.ImageDraw, at: tuple[float, float], text: str, fill: tuple[int, ...], anchor: str) -> None:
    draw.text(at, text, fill=fill, font=_font(11 * SCALE), anchor=anchor)


def _step(span: float, labels: int = 10) -> int:
    """A round tick step (1, 2, 5, 10, 20, 50...) giving at most ``labels`` ticks over ``span``."""
    step = 1
    while span / step > labels:
        for factor in (2, 5 / 2, 2):
            step = int(step * factor)
            if span / step <= labels:
                break
    return step


def x_ticks(draw: ImageDraw.ImageDraw, frame: Frame, last: int, first: int = 1) -> None:
    step = _step(last - first + 1)
    ticks = [first, *range(step, last + 1, step)] if last >= first else []
    if ticks and ticks[-1] != last and frame.x(last) - frame.x(ticks[-1]) > 24 * SCALE:
        ticks.append(last)
    for tick in dict.fromkeys(ticks):
        x = frame.x(tick)
        draw.line([(x, SCALE * frame.bottom), (x, SCALE * (frame.bottom + 3))], fill=FAINT, width=SCALE)
        write(draw, (x, SCALE * (frame.bottom + 5)), str(tick), FAINT, "mt")


def y_label(draw: ImageDraw.ImageDraw, frame: Frame, value: float, text: str, *, grid: bool = True) -> None:
    y = frame.y(value)
    if grid:
        draw.line([(SCALE * frame.left, y), (SCALE * frame.right, y)], fill=GRID, width=1)
    write(draw, (SCALE * (frame.left - 6), y), text, FAINT, "rm")


@dataclass(frozen=True, slots=True)
class Picture:
    """An image for a message: the embed shows it as ``attachment://{name}``."""

    name: str
    png: bytes


# ---- results over time (/stats) ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Result:
    """One ended game in a results chart: its score (None: abandoned, no score), whether it was won, and the
    index of its team's colour in ``TEAM_COLOURS`` (None: a team without a colour of its own)."""

    score: int | None
    won: bool
    team: int | None = None


ROLLING = 5  # games in the running average


def results_png(panels: Sequence[Sequence[Result]]) -> bytes:
    """Results over time, one panel per game (in the order given), oldest game left: each game a dot in its team's
    colour at its score (lower is better), a gold ring for a win, a short grey tick at the bottom for a game
    abandoned without a score, and a white line for the running average of the last five scores."""
    image, draw = canvas()
    shown = [panel for panel in panels if panel][:3] or [[]]
    height = (HEIGHT - 12) / len(shown)
    for number, results in enumerate(shown):
        top = 12 + number * height
        scores = [r.score for r in results if r.score is not None]
        ceiling, floor = max([*scores, 1]), min([*scores, 0])  # No Thanks! points can fall below 0
        frame = Frame(48, top, 770, top + height - 30, 1, floor - (ceiling - floor) * 0.04, ceiling * 1.08)
        draw.rectangle(frame.box(), fill=PANEL)
        _draw_results(draw, frame, results, floor, ceiling)
    return to_png(image)


def _draw_results(draw: ImageDraw.ImageDraw, frame: Frame, results: Sequence[Result], floor: int, ceiling: int) -> None:
    step = _step(ceiling - floor, 5)
    for value in range(floor // step * step, ceiling + 1, step):
        if value >= floor:
            y_label(draw, frame, value, str(value))
    count = len(results)
    inner = max(count - 1, 1)
    frame = Frame(frame.left + 10, frame.top, frame.right - 10, frame.bottom, inner, frame.y_min, frame.y_max)

    def x_of(index: int) -> float:
        return frame.x(index) if count > 1 else frame.x(frame.x_max / 2)

    recent: list[int] = []
    average: list[tuple[float, float]] = []
    for index, result in enumerate(results):
        if result.score is None:
            continue
        recent = [*recent[-(ROLLING - 1) :], result.score]
        average.append((x_of(index), frame.y(sum(recent) / len(recent))))
    if len(average) > 1:
        draw.line(average, fill=(235, 235, 235), width=SCALE, joint="curve")
    radius = (5 if count <= 40 else 3.5) * SCALE
    for index, result in enumerate(results):
        x = x_of(index)
        if result.score is None:
            draw.line([(x, frame.y(floor)), (x, frame.y(floor) - 8 * SCALE)], fill=FAINT, width=2 * SCALE)
            continue
        y = frame.y(result.score)
        colour = OTHER_TEAMS if result.team is None else TEAM_COLOURS[result.team % len(TEAM_COLOURS)]
        draw.ellipse([x - radius, y - radius, x + radius, y + radius], fill=colour)
        if result.won:
            ring = radius + 2.5 * SCALE
            draw.ellipse([x - ring, y - ring, x + ring, y + ring], outline=WON, width=SCALE + 1)
    # The games numbered from 1, the oldest shown.
    step = _step(count)
    for tick in dict.fromkeys([1, *range(step, count + 1, step), count]) if count else ():
        write(draw, (x_of(tick - 1), SCALE * (frame.bottom + 5)), str(tick), FAINT, "mt")
