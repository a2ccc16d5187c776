"""SVG drawing of a position (standard library only).

The board is drawn as the text drawing lays it out (``catena.text``): rows are
horizontal, row 1 at the bottom, and a cell's neighbour (c+1, r+1) is up and to
the right; so the cells are pointy-topped hexagons.  Column letters run along
the lower edges, row numbers along the left edges.

>>> import catena
>>> from catena.svg import svg
>>> pos = catena.Position(size=2)
>>> pos.push("B2"); pos.push("A1")
>>> board = svg(pos, size=300)
>>> board.startswith("<svg") and 'class="stone black" data-cell="B2"' in board
True
>>> board._repr_svg_() == str(board)
True
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Dict, List, Optional, Tuple, Union

from catena._position import Position
from catena.game import Game
from catena.text import status_lines

__all__ = ["SvgBoard", "svg"]

SVG_NAMESPACE = "http://www.w3.org/2000/svg"

# Geometry, in viewBox units: R is the hexagon's circumradius (centre to corner).
R = 20.0
_INNER = R * math.sqrt(3) / 2          # centre to the middle of an edge
_STONE = 0.78 * _INNER
_HALO = 0.94 * _INNER
_MARGIN = 0.6 * R
_LABEL_FONT = 0.62 * R
_STATUS_FONT = 0.62 * R
_STATUS_LINE = 1.35 * _STATUS_FONT

COLOURS = {
    "cell": "#ecd3a0",
    "cell_stroke": "#8a6a3b",
    "black": "#1b1b1b",
    "black_stroke": "#000000",
    "white": "#fbfbf8",
    "white_stroke": "#3a3a3a",
    "coordinate": "#5a4526",
    "last_move": "#e0302a",
    "legal": "#6d5532",
    "bounded": "#2f8f55",
    "status": "#222222",
}


class SvgBoard(str):
    """The SVG text of a board drawing; shows as an image in Jupyter."""

    def _repr_svg_(self) -> str:
        return str(self)


def _check_bool(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"svg(): {name} must be True or False, not {type(value).__name__}")
    return value


def _fmt(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _centre(column: int, row: int, n: int) -> Tuple[float, float]:
    """Centre of cell (column, row) (it may lie off the board, for the labels)."""
    return ((column - row / 2) * math.sqrt(3) * R, (2 * n - 1 - row) * 1.5 * R)


def _hexagon(x: float, y: float) -> str:
    corners = []
    for k in range(6):
        angle = math.radians(60 * k - 90)
        corners.append(f"{_fmt(x + R * math.cos(angle))},{_fmt(y + R * math.sin(angle))}")
    return " ".join(corners)


def _parse(name: str) -> Tuple[int, int]:
    return ord(name[0]) - 64, int(name[1:])


def _position_of(drawn: Union[Position, Game]) -> Position:
    """The position to draw: a Position, or a Game's (its empty board before the komi)."""
    if isinstance(drawn, Game):
        if drawn.position is not None:
            return drawn.position
        return Position(drawn.size, drawn.game_type, drawn.scoring, 0)
    if not isinstance(drawn, Position):
        raise TypeError(f"svg(): expected a catena.Position or a catena.Game, not {type(drawn).__name__}")
    return drawn


def svg(pos: Union[Position, Game], *, size: Optional[int] = None, coordinates: bool = True, last_move: bool = True,
        legal: bool = False, bounded: bool = True) -> SvgBoard:
    """Draw ``pos`` (a Position, or a Game: its position) as an SVG image.

    ``size`` is the width in pixels (None: about 35 pixels a column);
    ``coordinates`` adds column letters and row numbers around the board;
    ``last_move`` marks the stone of the last move (or notes that the last move
    was the button); ``legal`` puts a small dot on each cell that is a legal move;
    ``bounded`` outlines the bounded ribbons with a halo.  Below the board a
    status line says who is to move, who has the button and the score, or the
    outcome once the game is over.

    Stones are ``<circle class="stone black" data-cell="F6">`` (or "stone white");
    the marks are ``class="last-move"``, ``class="legal"`` (with ``data-cell``) and
    ``<g class="ribbon bounded" data-cells="...">``.

    >>> import catena
    >>> picture = svg(catena.Position(size=2), coordinates=False)
    >>> picture.startswith("<svg"), picture._repr_svg_() == str(picture)
    (True, True)
    >>> game = catena.Game(size=2); game.choose_komi(1)
    >>> svg(game) == svg(game.position)
    True
    """
    pos = _position_of(pos)
    if size is not None:
        if isinstance(size, bool) or not isinstance(size, int):
            raise TypeError(f"svg(): size must be an int (pixels) or None, not {type(size).__name__}")
        if size <= 0:
            raise ValueError(f"svg(): size must be positive, not {size}")
    _check_bool(coordinates, "coordinates")
    _check_bool(last_move, "last_move")
    _check_bool(legal, "legal")
    _check_bool(bounded, "bounded")

    from catena._geometry import cells as cell_names

    n = pos.size
    names = cell_names(n)
    shown = [int(v) for v in pos.to_array()]
    centres: Dict[str, Tuple[float, float]] = {name: _centre(*_parse(name), n) for name in names}

    # the extent of the drawing: the hexagons, then the labels
    xs = [x for x, _ in centres.values()]
    ys = [y for _, y in centres.values()]
    left, right = min(xs) - _INNER, max(xs) + _INNER
    top, bottom = min(ys) - R, max(ys) + R
    labels: List[Tuple[float, float, str]] = []
    if coordinates:
        for column in range(1, 2 * n):
            x, y = _centre(column, max(1, column - n + 1) - 1, n)
            labels.append((x, y, chr(64 + column)))
        for row in range(1, 2 * n):
            x, y = _centre(max(1, row - n + 1) - 1, row, n)
            labels.append((x, y, str(row)))
        for x, y, _ in labels:
            left, right = min(left, x - _LABEL_FONT), max(right, x + _LABEL_FONT)
            top, bottom = min(top, y - _LABEL_FONT), max(bottom, y + _LABEL_FONT)

    last = pos.peek() if last_move else None
    status = status_lines(pos)
    if last is not None and last.name == "button":
        status.append(f"last move: button (taken by {pos.button})")
    # widen the picture if the status text is wider than the board (small sides)
    text_width = max(len(line) for line in status) * 0.56 * _STATUS_FONT
    if right - left < text_width:
        middle = (left + right) / 2
        left, right = middle - text_width / 2, middle + text_width / 2
    status_top = bottom + 0.4 * R
    bottom = status_top + len(status) * _STATUS_LINE

    vb_x, vb_y = left - _MARGIN, top - _MARGIN
    vb_w, vb_h = right - left + 2 * _MARGIN, bottom - top + 2 * _MARGIN
    width = size if size is not None else round(vb_w)
    height = max(1, round(width * vb_h / vb_w))
    vb_h = height * vb_w / width            # whole pixels, the aspect kept exactly

    root = ET.Element("svg", {
        "xmlns": SVG_NAMESPACE,
        "version": "1.1",
        "width": str(width),
        "height": str(height),
        "viewBox": f"{_fmt(vb_x)} {_fmt(vb_y)} {_fmt(vb_w)} {_fmt(vb_h)}",
        "class": "catena-board",
    })
    ET.SubElement(root, "title").text = f"Catena position, side {n}"
    ET.SubElement(root, "rect", {
        "x": _fmt(vb_x), "y": _fmt(vb_y), "width": _fmt(vb_w), "height": _fmt(vb_h),
        "fill": "#ffffff", "class": "background"})

    cells_group = ET.SubElement(root, "g", {
        "class": "cells", "fill": COLOURS["cell"], "stroke": COLOURS["cell_stroke"],
        "stroke-width": _fmt(0.08 * R), "stroke-linejoin": "round"})
    for name in names:
        x, y = centres[name]
        ET.SubElement(cells_group, "polygon", {"class": "cell", "data-cell": name, "points": _hexagon(x, y)})

    if coordinates:
        label_group = ET.SubElement(root, "g", {
            "class": "coordinates", "fill": COLOURS["coordinate"], "font-family": "sans-serif",
            "font-size": _fmt(_LABEL_FONT), "font-weight": "bold", "text-anchor": "middle"})
        for x, y, text in labels:
            label = ET.SubElement(label_group, "text", {
                "class": "coordinate", "x": _fmt(x), "y": _fmt(y + 0.36 * _LABEL_FONT)})
            label.text = text

    if bounded:
        halo = {"stroke": COLOURS["bounded"], "fill": COLOURS["bounded"], "opacity": "0.55"}
        for ribbon in pos.ribbons():
            if not ribbon.bounded:
                continue
            group = ET.SubElement(root, "g", dict(halo, **{
                "class": "ribbon bounded", "data-cells": " ".join(ribbon.cells)}))
            # one shape per ribbon, so the opacity is not doubled where parts overlap
            points = [centres[cell] for cell in ribbon.cells]
            if len(points) == 1:
                x, y = points[0]
                ET.SubElement(group, "circle", {
                    "cx": _fmt(x), "cy": _fmt(y), "r": _fmt(_HALO), "stroke": "none"})
            else:
                ET.SubElement(group, "polyline", {
                    "points": " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in points),
                    "fill": "none", "stroke-width": _fmt(2 * _HALO),
                    "stroke-linecap": "round", "stroke-linejoin": "round"})

    stones_group = ET.SubElement(root, "g", {"class": "stones", "stroke-width": _fmt(0.06 * R)})
    for index, name in enumerate(names):
        if shown[index] == 0:
            continue
        colour = "black" if shown[index] == 1 else "white"
        x, y = centres[name]
        ET.SubElement(stones_group, "circle", {
            "class": f"stone {colour}", "data-cell": name, "cx": _fmt(x), "cy": _fmt(y),
            "r": _fmt(_STONE), "fill": COLOURS[colour], "stroke": COLOURS[colour + "_stroke"]})

    if legal:
        legal_group = ET.SubElement(root, "g", {"class": "legal-moves", "fill": COLOURS["legal"],
                                                "opacity": "0.7"})
        for move in pos.legal_moves():
            if move.name == "button":
                continue
            x, y = centres[move.name]
            ET.SubElement(legal_group, "circle", {
                "class": "legal", "data-cell": move.name, "cx": _fmt(x), "cy": _fmt(y),
                "r": _fmt(0.14 * R)})

    if last is not None and last.name != "button":
        x, y = centres[last.name]
        ET.SubElement(root, "circle", {
            "class": "last-move", "data-cell": last.name, "cx": _fmt(x), "cy": _fmt(y),
            "r": _fmt(0.26 * R), "fill": COLOURS["last_move"]})

    status_group = ET.SubElement(root, "g", {
        "class": "status", "fill": COLOURS["status"], "font-family": "sans-serif",
        "font-size": _fmt(_STATUS_FONT), "text-anchor": "middle"})
    middle = (left + right) / 2
    for i, line in enumerate(status):
        attributes = {"class": "status-line", "x": _fmt(middle),
                      "y": _fmt(status_top + (i + 0.8) * _STATUS_LINE)}
        if line.startswith("last move: button"):
            attributes["class"] = "status-line last-move-note"
        ET.SubElement(status_group, "text", attributes).text = line

    return SvgBoard(ET.tostring(root, encoding="unicode"))
