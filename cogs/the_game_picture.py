"""The end screen's picture of a game of The Game: its course, drawn from the move log with ``table.picture``'s
helpers (numbers, pile letters, arrows and symbols only, so it reads the same in every language)."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import ImageDraw

from engine.game import Move, Setup
from engine.the_game import ASCENDING, Action
from engine.the_game_course import Course, course
from table.picture import (
    BACKGROUND,
    GRID,
    INK,
    PANEL,
    SCALE,
    Frame,
    Picture,
    canvas,
    to_png,
    write,
    x_ticks,
    y_label,
)

PILE_COLOURS = {"A": (255, 159, 67), "B": (255, 107, 129), "C": (84, 160, 255), "D": (29, 209, 161)}
DRAW_PILE = (112, 120, 134)
HANDS = (46, 196, 182)
TRICK = (255, 255, 255)


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


def course_png(course: Course) -> bytes:
    """The course of a game: above, each pile's top after every card (A and B climb from 1, C and D fall from 100;
    a white ring marks a backwards trick); below, the cards left turn by turn, the draw pile under the hands. The
    turns run left to right on one scale for both."""
    image, draw = canvas()
    turns = max(course.turns, 1)
    piles = Frame(40, 12, 770, 290, turns, 1, 100)
    left = Frame(40, 306, 770, 420, turns, 0, max(course.left[0].total, 1))
    for frame in (piles, left):
        draw.rectangle(frame.box(), fill=PANEL)
    for value in range(10, 100, 10):
        draw.line([(piles.x(0), piles.y(value)), (piles.x(turns), piles.y(value))], fill=GRID, width=1)
    for value in (1, 50, 100):
        y_label(draw, piles, value, str(value), grid=False)
    _draw_left(draw, course, left)
    _draw_paths(draw, course, piles)
    x_ticks(draw, left, course.turns)
    return to_png(image)


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
    y_label(draw, frame, 0, "0", grid=False)
    y_label(draw, frame, frame.y_max, str(int(frame.y_max)), grid=False)
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
    write(draw, (SCALE * (frame.right + 4), frame.y(last.total)), str(last.total), INK, "lm")


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
        write(draw, (x, at), pile, PILE_COLOURS[pile], "lm")
        _arrow(draw, x + 16 * SCALE, at, pile in ASCENDING, PILE_COLOURS[pile])
