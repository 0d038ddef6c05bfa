"""Pictures where people would rather look than read: the course of a game of The Game, and results over time.

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

from engine.game import Move, Setup
from engine.the_game import Action
from engine.the_game_course import Course, course

WIDTH, HEIGHT = 800, 450
SCALE = 2  # drawn at twice the size, then scaled down: smooth lines without an antialiasing renderer
COLOURS = 96  # the palette of the saved PNG: keeps it at a few tens of KB

BACKGROUND = (30, 33, 38)
PANEL = (40, 44, 51)
GRID = (58, 63, 72)
INK = (205, 209, 216)
FAINT = (140, 146, 156)
PILE_COLOURS = {"A": (255, 159, 67), "B": (255, 107, 129), "C": (84, 160, 255), "D": (29, 209, 161)}
ASCENDING = frozenset({"A", "B"})
DRAW_PILE = (112, 120, 134)
HANDS = (46, 196, 182)
TRICK = (255, 255, 255)
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


def _canvas() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (WIDTH * SCALE, HEIGHT * SCALE), BACKGROUND)
    return image, ImageDraw.Draw(image)


def _png(image: Image.Image) -> bytes:
    # A box filter and the fast octree palette: a few milliseconds each, where Lanczos and median cut take tens.
    small = image.reduce(SCALE)
    out = io.BytesIO()
    small.quantize(colors=COLOURS, method=Image.Quantize.FASTOCTREE).save(out, format="PNG")
    return out.getvalue()


def _text(draw: ImageDraw.ImageDraw, at: tuple[float, float], text: str, fill: tuple[int, ...], anchor: str) -> None:
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


def _x_ticks(draw: ImageDraw.ImageDraw, frame: Frame, last: int, first: int = 1) -> None:
    step = _step(last - first + 1)
    ticks = [first, *range(step, last + 1, step)] if last >= first else []
    if ticks and ticks[-1] != last and frame.x(last) - frame.x(ticks[-1]) > 24 * SCALE:
        ticks.append(last)
    for tick in dict.fromkeys(ticks):
        x = frame.x(tick)
        draw.line([(x, SCALE * frame.bottom), (x, SCALE * (frame.bottom + 3))], fill=FAINT, width=SCALE)
        _text(draw, (x, SCALE * (frame.bottom + 5)), str(tick), FAINT, "mt")


def _y_label(draw: ImageDraw.ImageDraw, frame: Frame, value: float, text: str, *, grid: bool = True) -> None:
    y = frame.y(value)
    if grid:
        draw.line([(SCALE * frame.left, y), (SCALE * frame.right, y)], fill=GRID, width=1)
    _text(draw, (SCALE * (frame.left - 6), y), text, FAINT, "rm")


def _arrow(draw: ImageDraw.ImageDraw, x: float, y: float, up: bool, fill: tuple[int, int, int]) -> None:
    """A small triangle pointing the way a pile goes."""
    size = 5 * SCALE
    tip, base = (y - size, y + size * 0.6) if up else (y + size, y - size * 0.6)
    draw.polygon([(x, tip), (x - size * 0.8, base), (x + size * 0.8, base)], fill=fill)


def _draw_pile_icon(draw: ImageDraw.ImageDraw, x: float, y: float, fill: tuple[int, int, int]) -> None:
    """A squared-up stack of cards: the draw pile."""
    w, h = 9 * SCALE, 12 * SCALE
    for i in (2, 1, 0):
        dx, dy = i * 2 * SCALE, -i * 2 * SCALE
        draw.rectangle([x + dx, y + dy - h / 2, x + dx + w, y + dy + h / 2], fill=fill, outline=BACKGROUND, width=SCALE)


def _hand_icon(draw: ImageDraw.ImageDraw, x: float, y: float, fill: tuple[int, int, int]) -> None:
    """Three cards fanned out: the hands."""
    w, h = 8 * SCALE, 12 * SCALE
    for i in (-1, 0, 1):
        cx = x + w / 2 + i * 5 * SCALE
        lean = i * 3 * SCALE
        corners = [
            (cx - w / 2 + lean, y - h / 2),
            (cx + w / 2 + lean, y - h / 2),
            (cx + w / 2, y + h / 2),
            (cx - w / 2, y + h / 2),
        ]
        draw.polygon(corners, fill=fill, outline=BACKGROUND)


@dataclass(frozen=True, slots=True)
class Picture:
    """An image for a message: the embed shows it as ``attachment://{name}``."""

    name: str
    png: bytes


# ---- the course of a game of The Game -------------------------------------------------------------------------------


def course_png(course: Course) -> bytes:
    """The course of a game: above, each pile's top after every card (A and B climb from 1, C and D fall from 100;
    a white ring marks a backwards trick); below, the cards left turn by turn, the draw pile under the hands. The
    turns run left to right on one scale for both."""
    image, draw = _canvas()
    turns = max(course.turns, 1)
    piles = Frame(40, 12, 770, 290, turns, 1, 100)
    left = Frame(40, 306, 770, 420, turns, 0, max(course.left[0].total, 1))
    for frame in (piles, left):
        draw.rectangle(frame.box(), fill=PANEL)
    for value in range(10, 100, 10):
        draw.line([(piles.x(0), piles.y(value)), (piles.x(turns), piles.y(value))], fill=GRID, width=1)
    for value in (1, 50, 100):
        _y_label(draw, piles, value, str(value), grid=False)
    _draw_left(draw, course, left)
    _draw_paths(draw, course, piles)
    _x_ticks(draw, left, course.turns)
    return _png(image)


def the_game_end_picture(setup: Setup, moves: Sequence[Move[Action]]) -> Picture | None:
    """The end screen's picture of a game of The Game: its course; none for a game everybody left."""
    figures = course(setup, moves)
    if figures.status not in ("won", "lost"):
        return None
    return Picture("course.png", course_png(figures))


def _draw_left(draw: ImageDraw.ImageDraw, course: Course, frame: Frame) -> None:
    """The cards left, stacked: the draw pile at the bottom, the hands on top; each turn a step."""
    draw_line: list[tuple[float, float]] = []
    total_line: list[tuple[float, float]] = []
    for index, figures in enumerate(course.left):
        end = course.left[index + 1].turn if index + 1 < len(course.left) else max(figures.turn, 1)
        for x in (frame.x(figures.turn), frame.x(end)):
            draw_line.append((x, frame.y(figures.draw_pile)))
            total_line.append((x, frame.y(figures.total)))
    base = frame.y(0)
    draw.polygon([(total_line[0][0], base), *total_line, (total_line[-1][0], base)], fill=HANDS)
    draw.polygon([(draw_line[0][0], base), *draw_line, (draw_line[-1][0], base)], fill=DRAW_PILE)
    _y_label(draw, frame, 0, "0", grid=False)
    _y_label(draw, frame, frame.y_max, str(int(frame.y_max)), grid=False)
    # The icons say which band is which, without a word.
    first = course.left[0]
    x = frame.x(0) + 6 * SCALE
    _draw_pile_icon(draw, x, (frame.y(0) + frame.y(first.draw_pile)) / 2, (222, 226, 232))
    hands_middle = (frame.y(first.draw_pile) + frame.y(first.total)) / 2
    if frame.y(first.draw_pile) - frame.y(first.total) >= 14 * SCALE:
        _hand_icon(draw, x, hands_middle, (222, 226, 232))
    else:  # a band too thin to hold the icon: beside it, in its colour
        _hand_icon(draw, frame.x(0) - 30 * SCALE, hands_middle, HANDS)
    last = course.left[-1]
    _text(draw, (SCALE * (frame.right + 4), frame.y(last.total)), str(last.total), INK, "lm")


def _draw_paths(draw: ImageDraw.ImageDraw, course: Course, frame: Frame) -> None:
    """Each pile as a step line: its top stays until the next card on it, at that card's place in its turn."""
    per_turn = {turn: course.cards_in_turn(turn) for turn in {card.turn for card in course.laid}}
    placed: dict[int, int] = {}
    ends: list[tuple[float, str]] = []
    tricks: list[tuple[float, float]] = []
    paths: dict[str, list[tuple[float, float]]] = {}
    for card in course.laid:
        placed[card.turn] = placed.get(card.turn, 0) + 1
        x = frame.x(card.turn - 1 + placed[card.turn] / per_turn[card.turn])
        points = paths.setdefault(card.pile, [(frame.x(0), frame.y(card.over))])
        points += [(x, frame.y(card.over)), (x, frame.y(card.card))]
        if card.trick:
            tricks.append((x, frame.y(card.card)))
    for pile, colour in PILE_COLOURS.items():
        path = paths.get(pile) or [(frame.x(0), frame.y(1 if pile in ASCENDING else 100))]
        top = path[-1][1]
        line = [*path, (frame.x(frame.x_max), top)]
        draw.line(line, fill=colour, width=2 * SCALE, joint="curve")
        ends.append((top, pile))
    radius = 4.5 * SCALE
    for x, y in tricks:
        draw.ellipse([x - radius, y - radius, x + radius, y + radius], outline=TRICK, width=SCALE + 1)
    # The pile letters at the line ends, pushed apart where tops are close.
    gap = 13 * SCALE
    placed_at: list[float] = []
    for y, pile in sorted(ends):
        at = max(y, placed_at[-1] + gap) if placed_at else y
        placed_at.append(at)
        x = SCALE * (frame.right + 6)
        _text(draw, (x, at), pile, PILE_COLOURS[pile], "lm")
        _arrow(draw, x + 16 * SCALE, at, pile in ASCENDING, PILE_COLOURS[pile])


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
    image, draw = _canvas()
    shown = [panel for panel in panels if panel][:3] or [[]]
    height = (HEIGHT - 12) / len(shown)
    for number, results in enumerate(shown):
        top = 12 + number * height
        scores = [r.score for r in results if r.score is not None]
        ceiling, floor = max([*scores, 1]), min([*scores, 0])  # No Thanks! points can fall below 0
        frame = Frame(48, top, 770, top + height - 30, 1, floor - (ceiling - floor) * 0.04, ceiling * 1.08)
        draw.rectangle(frame.box(), fill=PANEL)
        _draw_results(draw, frame, results, floor, ceiling)
    return _png(image)


def _draw_results(draw: ImageDraw.ImageDraw, frame: Frame, results: Sequence[Result], floor: int, ceiling: int) -> None:
    step = _step(ceiling - floor, 5)
    for value in range(floor // step * step, ceiling + 1, step):
        if value >= floor:
            _y_label(draw, frame, value, str(value))
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
        _text(draw, (x_of(tick - 1), SCALE * (frame.bottom + 5)), str(tick), FAINT, "mt")
