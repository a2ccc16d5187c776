"""SVG drawing of a position, with the standard library only (``xml.etree``).

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

A heatmap of move values, with a principal variation numbered on the board:

>>> heat = svg(pos, values={"B3": 0.25, "C3": 0.75, "button": 0.5}, pv=["button", "C3"])
>>> 'class="value" data-cell="C3" data-value="0.75"' in heat, 'data-order="2"' in heat
(True, True)
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Sequence, Set, Tuple, Union

from catena._geometry import Move, cell_coordinates, cells
from catena._position import Position
from catena._validate import boolean, optional_integer, real
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
    "button_box": "#f4ead6",
}

# The value scale: viridis (perceptually even, readable without colour vision),
# low values dark purple, high values yellow.
VALUE_SCALE = ("#440154", "#482878", "#3e4989", "#31688e", "#26828e",
               "#1f9e89", "#35b779", "#6ece58", "#fde725")
_VALUE_FONT = 0.5 * R
_MIN_PIXELS_FOR_NUMBERS = 11          # R in pixels below which cell numbers would be illegible
_BUTTON_BOX = (3.0 * R, 2.1 * R)      # width, height
_LEGEND_BAR = 0.55 * R


class SvgBoard(str):
    """The SVG text of a board drawing; shows as an image in Jupyter."""

    def _repr_svg_(self) -> str:
        return str(self)


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


def _hex_rgb(colour: str) -> Tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def scale_colour(t: float) -> str:
    """The colour of ``t`` (0 to 1) on the value scale, as ``#rrggbb``.

    >>> scale_colour(0.0), scale_colour(1.0)
    ('#440154', '#fde725')
    """
    t = min(1.0, max(0.0, t)) * (len(VALUE_SCALE) - 1)
    k = min(int(t), len(VALUE_SCALE) - 2)
    low, high = _hex_rgb(VALUE_SCALE[k]), _hex_rgb(VALUE_SCALE[k + 1])
    return "#" + "".join(f"{round(a + (b - a) * (t - k)):02x}" for a, b in zip(low, high))


def _ink(fill: str) -> str:
    """Black or white, whichever reads better on ``fill``."""
    r, g, b = _hex_rgb(fill)
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#ffffff"


def format_value(value: float) -> str:
    """A value short enough to print on a cell: 3 significant digits at most.

    >>> [format_value(v) for v in (0.634, -10.5, 120.7, 3.0, 0.0004)]
    ['0.63', '-10.5', '121', '3', '0']
    """
    magnitude = abs(value)
    digits = 0 if magnitude >= 100 else 1 if magnitude >= 10 else 2
    text = f"{value:.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


MoveKey = Union[Move, str]
Values = Union[Mapping[Move, float], Mapping[str, float], Mapping[MoveKey, float]]


def _move_name(move: object, pos: Position, what: str) -> str:
    """The name of a cell or of the button given as a Move or a name, checked for ``pos``."""
    if isinstance(move, Move):
        if move.size != pos.size:
            raise ValueError(f"svg(): {what} {move} is a move of the side-{move.size} board, "
                             f"this board has side {pos.size}")
        name = move.name
    elif isinstance(move, str):
        name = Move(move, pos.size).name
    else:
        raise TypeError(f"svg(): {what} must be a Move or a cell name, not {type(move).__name__}")
    if name == "button" and pos.game_type == "double":
        raise ValueError(f"svg(): {what} is the button, but double placement has no button (R19)")
    return name


def _checked_values(values: Values, pos: Position) -> Dict[str, float]:
    if not isinstance(values, Mapping):
        raise TypeError(f"svg(): values must be a dict of moves to numbers, not {type(values).__name__}")
    checked: Dict[str, float] = {}
    for key, value in values.items():
        name = _move_name(key, pos, "a values key")
        number = real(value, f"svg(): the value of {name}", finite=True)
        if name in checked:
            raise ValueError(f"svg(): {name} is given twice in values")
        checked[name] = number
    return checked


def _checked_pv(pv: Sequence[MoveKey], pos: Position) -> List[Tuple[str, str]]:
    """The principal variation as (move name, colour of the player making it), replayed
    on a copy of ``pos`` so that every move is checked to be legal in turn."""
    if isinstance(pv, (str, bytes)) or not isinstance(pv, Sequence):
        raise TypeError(f"svg(): pv must be a list of moves, not {type(pv).__name__}")
    line = pos.copy()
    marks = []
    for order, move in enumerate(pv, 1):
        name = _move_name(move, pos, f"pv move {order}")
        mover = line.to_move
        if not line.is_legal(name):
            raise ValueError(f"svg(): pv move {order} ({name}) is not legal after the moves before it")
        line.push(name)
        marks.append((name, mover))
    return marks


def _position_of(drawn: Union[Position, Game]) -> Position:
    """The position to draw: a Position, or a Game's (its empty board before the komi)."""
    if isinstance(drawn, Game):
        if drawn.position is not None:
            return drawn.position
        return Position(drawn.size, drawn.game_type, drawn.scoring, 0)
    if not isinstance(drawn, Position):
        raise TypeError(f"svg(): expected a catena.Position or a catena.Game, not {type(drawn).__name__}")
    return drawn


def svg(pos: Union[Position, Game], *, size: Optional[int] = None, coordinates: bool = True,
        last_move: bool = True, legal: bool = False, bounded: bool = True, values: Optional[Values] = None,
        pv: Optional[Sequence[MoveKey]] = None, legend: str = "value") -> SvgBoard:
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

    ``values`` maps moves (``Move`` objects or names, ``"button"`` included) to
    numbers and draws a heatmap: each listed cell is filled on a colour scale
    from the lowest value (dark purple) to the highest (yellow), its number
    printed on it when the drawing is large enough to read it, and a legend
    below the board shows the scale, captioned ``legend``.  The button is a
    labelled box beside the board.  Each valued cell is
    ``<polygon class="value" data-cell="F6" data-value="0.63">`` (a ``rect`` for
    the button).  ``pv`` is a principal variation: its moves, replayed from
    ``pos`` and checked to be legal, are numbered 1, 2, 3 ... on their cells in
    the colour of the player making them (``class="pv"``, ``data-cell``,
    ``data-order``).

    >>> import catena
    >>> picture = svg(catena.Position(size=2), coordinates=False)
    >>> picture.startswith("<svg"), picture._repr_svg_() == str(picture)
    (True, True)
    >>> game = catena.Game(size=2); game.choose_komi(1)
    >>> svg(game) == svg(game.position)
    True
    """
    pos = _position_of(pos)
    size = optional_integer(size, "svg(): size (pixels)", minimum=1)
    for name, flag in (("coordinates", coordinates), ("last_move", last_move), ("legal", legal),
                       ("bounded", bounded)):
        boolean(flag, f"svg(): {name}")
    if not isinstance(legend, str):
        raise TypeError(f"svg(): legend must be a str, not {type(legend).__name__}")
    valued = {} if values is None else _checked_values(values, pos)
    pv_marks = [] if pv is None else _checked_pv(pv, pos)
    last = pos.peek() if last_move else None
    layout = _layout(pos, size, coordinates, valued, pv_marks, legend, last)
    root = _draw(pos, layout, legal=legal, bounded=bounded, valued=valued, pv_marks=pv_marks, legend=legend,
                 last=last)
    return SvgBoard(ET.tostring(root, encoding="unicode"))


@dataclass
class _Layout:
    """Where a drawing's parts go, in board units, and the picture's size in pixels."""

    centres: Dict[str, Tuple[float, float]]     # each cell's centre
    labels: List[Tuple[float, float, str]]      # the coordinates around the board
    left: float                                 # the drawing's horizontal extent
    right: float
    button_box: Optional[Tuple[float, float, float, float]]   # x, y, width, height, or None
    legend_top: float
    status_top: float
    status: List[str]                           # the lines below the board
    width: int                                  # pixels
    height: int
    view_box: Tuple[float, float, float, float]


def _layout(pos: Position, size: Optional[int], coordinates: bool, valued: Dict[str, float],
            pv_marks: List[Tuple[str, str]], legend: str, last: Optional[Move]) -> _Layout:
    """Lay out the board, its labels, the button's box, the legend and the status lines."""
    n = pos.size
    centres: Dict[str, Tuple[float, float]] = {name: _centre(column, row, n)
                                               for name, (column, row) in zip(cells(n), cell_coordinates(n))}

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

    status = status_lines(pos)
    if last is not None and last.name == "button":
        status.append(f"last move: button (taken by {pos.button})")
    # the button's box, right of the board, level with its top row
    button_box = None
    if "button" in valued or any(name == "button" for name, _ in pv_marks):
        box_w, box_h = _BUTTON_BOX
        button_box = (right + 0.6 * R, min(ys) - R, box_w, box_h)
        right = button_box[0] + box_w
    # widen the picture if the status text is wider than the board (small sides)
    text_width = max(len(line) for line in status) * 0.56 * _STATUS_FONT
    if valued:
        text_width = max(text_width, (len(legend) + 2) * 0.56 * _LABEL_FONT)
    if right - left < text_width:
        middle = (left + right) / 2
        left, right = middle - text_width / 2, middle + text_width / 2
    legend_top = bottom + 0.5 * R
    if valued:
        bottom = legend_top + _LEGEND_BAR + 2.9 * _LABEL_FONT
    status_top = bottom + 0.4 * R
    bottom = status_top + len(status) * _STATUS_LINE

    vb_x, vb_y = left - _MARGIN, top - _MARGIN
    vb_w, vb_h = right - left + 2 * _MARGIN, bottom - top + 2 * _MARGIN
    width = size if size is not None else round(vb_w)
    height = max(1, round(width * vb_h / vb_w))
    vb_h = height * vb_w / width            # whole pixels, the aspect kept exactly
    return _Layout(centres, labels, left, right, button_box, legend_top, status_top, status, width, height,
                   (vb_x, vb_y, vb_w, vb_h))


def _draw(pos: Position, layout: _Layout, *, legal: bool, bounded: bool, valued: Dict[str, float],
          pv_marks: List[Tuple[str, str]], legend: str, last: Optional[Move]) -> ET.Element:
    """The SVG tree of ``pos`` drawn as ``layout`` places it, bottom layer first."""
    names = cells(pos.size)
    shown = pos._cell_layers()[1]                # bytes: no NumPy array needed
    centres, left, right = layout.centres, layout.left, layout.right
    vb_x, vb_y, vb_w, vb_h = layout.view_box
    width = layout.width
    root = ET.Element("svg", {
        "xmlns": SVG_NAMESPACE,
        "version": "1.1",
        "width": str(width),
        "height": str(layout.height),
        "viewBox": f"{_fmt(vb_x)} {_fmt(vb_y)} {_fmt(vb_w)} {_fmt(vb_h)}",
        "class": "catena-board",
    })
    ET.SubElement(root, "title").text = f"Catena position, side {pos.size}"
    ET.SubElement(root, "rect", {
        "x": _fmt(vb_x), "y": _fmt(vb_y), "width": _fmt(vb_w), "height": _fmt(vb_h),
        "fill": "#ffffff", "class": "background"})

    cells_group = ET.SubElement(root, "g", {
        "class": "cells", "fill": COLOURS["cell"], "stroke": COLOURS["cell_stroke"],
        "stroke-width": _fmt(0.08 * R), "stroke-linejoin": "round"})
    for name in names:
        x, y = centres[name]
        ET.SubElement(cells_group, "polygon", {"class": "cell", "data-cell": name, "points": _hexagon(x, y)})

    numbers = width / vb_w * R >= _MIN_PIXELS_FOR_NUMBERS
    value_range = (min(valued.values()), max(valued.values())) if valued else (0.0, 0.0)
    _draw_value_cells(root, valued, centres, value_range)

    if layout.labels:
        label_group = ET.SubElement(root, "g", {
            "class": "coordinates", "fill": COLOURS["coordinate"], "font-family": "sans-serif",
            "font-size": _fmt(_LABEL_FONT), "font-weight": "bold", "text-anchor": "middle"})
        for x, y, text in layout.labels:
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

    pv_cells = {name for name, _ in pv_marks}
    if numbers:
        _draw_value_numbers(root, valued, centres, value_range, pv_cells)
    if layout.button_box is not None:
        _draw_button_box(root, layout.button_box, valued.get("button"), value_range, numbers,
                         "button" in pv_cells)
    _draw_pv(root, pv_marks, centres, layout.button_box, {name for name in valued if numbers})
    if valued:
        _draw_legend(root, (left + right) / 2, layout.legend_top, min(right - left, 12 * R), value_range, legend)

    if last is not None and last.name != "button":
        x, y = centres[last.name]
        ET.SubElement(root, "circle", {
            "class": "last-move", "data-cell": last.name, "cx": _fmt(x), "cy": _fmt(y),
            "r": _fmt(0.26 * R), "fill": COLOURS["last_move"]})

    status_group = ET.SubElement(root, "g", {
        "class": "status", "fill": COLOURS["status"], "font-family": "sans-serif",
        "font-size": _fmt(_STATUS_FONT), "text-anchor": "middle"})
    middle = (left + right) / 2
    for i, line in enumerate(layout.status):
        attributes = {"class": "status-line", "x": _fmt(middle),
                      "y": _fmt(layout.status_top + (i + 0.8) * _STATUS_LINE)}
        if line.startswith("last move: button"):
            attributes["class"] = "status-line last-move-note"
        ET.SubElement(status_group, "text", attributes).text = line
    return root


def _scale_position(value: float, value_range: Tuple[float, float]) -> float:
    low, high = value_range
    return 0.5 if high == low else (value - low) / (high - low)


def _draw_value_cells(root: ET.Element, valued: Dict[str, float], centres: Dict[str, Tuple[float, float]],
                      value_range: Tuple[float, float]) -> None:
    if not any(name != "button" for name in valued):
        return
    group = ET.SubElement(root, "g", {"class": "values", "stroke": COLOURS["cell_stroke"],
                                      "stroke-width": _fmt(0.08 * R), "stroke-linejoin": "round"})
    for name, value in valued.items():
        if name == "button":
            continue
        x, y = centres[name]
        ET.SubElement(group, "polygon", {
            "class": "value", "data-cell": name, "data-value": format_value(value),
            "points": _hexagon(x, y), "fill": scale_colour(_scale_position(value, value_range))})


def _value_text(parent: ET.Element, x: float, y: float, value: float, fill: str, room: float,
                largest: float) -> None:
    """The number ``value`` centred at (x, y), shrunk to fit ``room`` units of width."""
    text = format_value(value)
    font = min(largest, room / (0.6 * max(len(text), 1)))
    ET.SubElement(parent, "text", {
        "class": "value-label", "x": _fmt(x), "y": _fmt(y + 0.36 * font), "font-size": _fmt(font),
        "fill": _ink(fill)}).text = text


def _draw_value_numbers(root: ET.Element, valued: Dict[str, float], centres: Dict[str, Tuple[float, float]],
                        value_range: Tuple[float, float], pv_cells: Set[str]) -> None:
    cells = [name for name in valued if name != "button"]
    if not cells:
        return
    group = ET.SubElement(root, "g", {"class": "value-labels", "font-family": "sans-serif",
                                      "font-weight": "bold", "text-anchor": "middle"})
    for name in cells:
        x, y = centres[name]
        fill = scale_colour(_scale_position(valued[name], value_range))
        if name in pv_cells:        # the pv number takes the upper half of the cell
            _value_text(group, x, y + 0.42 * R, valued[name], fill, 1.2 * _INNER, 0.78 * _VALUE_FONT)
        else:
            _value_text(group, x, y, valued[name], fill, 1.75 * _INNER, _VALUE_FONT)


def _draw_button_box(root: ET.Element, box: Tuple[float, float, float, float], value: Optional[float],
                     value_range: Tuple[float, float], numbers: bool, in_pv: bool) -> None:
    x, y, w, h = box
    fill = COLOURS["button_box"] if value is None else scale_colour(_scale_position(value, value_range))
    group = ET.SubElement(root, "g", {"class": "button-box", "font-family": "sans-serif",
                                      "text-anchor": "middle", "font-weight": "bold"})
    attributes = {"x": _fmt(x), "y": _fmt(y), "width": _fmt(w), "height": _fmt(h), "rx": _fmt(0.25 * R),
                  "fill": fill, "stroke": COLOURS["cell_stroke"], "stroke-width": _fmt(0.08 * R)}
    if value is not None:
        attributes.update({"class": "value", "data-cell": "button", "data-value": format_value(value)})
    ET.SubElement(group, "rect", attributes)
    ET.SubElement(group, "text", {"class": "button-label", "x": _fmt(x + w / 2), "y": _fmt(y + 0.62 * R),
                                  "font-size": _fmt(0.5 * R), "fill": _ink(fill)}).text = "button"
    if value is not None and numbers:       # right of the pv mark, if the button is in the pv
        middle = x + (w + 0.9 * R) / 2 if in_pv else x + w / 2
        _value_text(group, middle, y + 1.4 * R, value, fill, w - 1.1 * R if in_pv else 0.9 * w, _VALUE_FONT)


def _draw_pv(root: ET.Element, marks: List[Tuple[str, str]], centres: Dict[str, Tuple[float, float]],
             button_box: Optional[Tuple[float, float, float, float]], numbered_cells: Set[str]) -> None:
    if not marks:
        return
    group = ET.SubElement(root, "g", {"class": "pv-marks", "font-family": "sans-serif",
                                      "font-weight": "bold", "text-anchor": "middle"})
    for order, (name, colour) in enumerate(marks, 1):
        if name == "button":
            assert button_box is not None
            bx, by, bw, bh = button_box
            x, y, radius = bx + 0.55 * R, by + 1.4 * R, 0.4 * R
        elif name in numbered_cells:
            x, y = centres[name]
            y, radius = y - 0.3 * R, 0.36 * R
        else:
            x, y = centres[name]
            radius = 0.5 * R
        mark = ET.SubElement(group, "g", {"class": "pv", "data-cell": name, "data-order": str(order)})
        ET.SubElement(mark, "circle", {
            "cx": _fmt(x), "cy": _fmt(y), "r": _fmt(radius), "fill": COLOURS[colour],
            "stroke": COLOURS["white_stroke" if colour == "white" else "white"],
            "stroke-width": _fmt(0.06 * R)})
        font = radius * (1.25 if order < 10 else 0.95)
        ET.SubElement(mark, "text", {
            "x": _fmt(x), "y": _fmt(y + 0.36 * font), "font-size": _fmt(font),
            "fill": COLOURS["black" if colour == "white" else "white"]}).text = str(order)


def _draw_legend(root: ET.Element, middle: float, top: float, width: float,
                 value_range: Tuple[float, float], caption: str) -> None:
    """A bar of the colour scale with the lowest and highest values at its ends."""
    low, high = value_range
    group = ET.SubElement(root, "g", {"class": "legend", "data-min": format_value(low),
                                      "data-max": format_value(high), "font-family": "sans-serif",
                                      "font-size": _fmt(_LABEL_FONT), "fill": COLOURS["status"]})
    defs = ET.SubElement(group, "defs")
    gradient = ET.SubElement(defs, "linearGradient", {"id": "catena-value-scale", "x1": "0", "x2": "1",
                                                      "y1": "0", "y2": "0"})
    for k, colour in enumerate(VALUE_SCALE):
        ET.SubElement(gradient, "stop", {"offset": _fmt(k / (len(VALUE_SCALE) - 1)), "stop-color": colour})
    left = middle - width / 2
    ET.SubElement(group, "rect", {"x": _fmt(left), "y": _fmt(top), "width": _fmt(width),
                                  "height": _fmt(_LEGEND_BAR), "fill": "url(#catena-value-scale)",
                                  "stroke": COLOURS["cell_stroke"], "stroke-width": _fmt(0.04 * R)})
    baseline = top + _LEGEND_BAR + 1.1 * _LABEL_FONT
    ET.SubElement(group, "text", {"x": _fmt(left), "y": _fmt(baseline), "text-anchor": "start"}).text = \
        format_value(low)
    ET.SubElement(group, "text", {"x": _fmt(left + width), "y": _fmt(baseline), "text-anchor": "end"}).text = \
        format_value(high)
    ET.SubElement(group, "text", {"class": "legend-caption", "x": _fmt(middle),
                                  "y": _fmt(baseline + 1.3 * _LABEL_FONT), "text-anchor": "middle"}).text = caption
