"""The heatmap of catena.svg: values on cells and the button, the legend, a numbered pv."""

import io
import math
import xml.etree.ElementTree as ET

import pytest

import catena
from catena.svg import COLOURS, VALUE_SCALE, format_value, scale_colour, svg

NS = "{http://www.w3.org/2000/svg}"


def parse(board):
    return ET.fromstring(str(board))


def with_class(root, name):
    return [e for e in root.iter() if name in e.get("class", "").split()]


def middle_game():
    pos = catena.Position(size=6)
    for move in ["F6", "G6", "E5", "D4", "H8"]:
        pos.push(move)
    return pos


def test_every_valued_cell_and_the_button_is_an_element_with_its_value():
    pos = middle_game()
    moves = pos.legal_moves()
    values = {move: (i * 7 % 23) - 5.5 for i, move in enumerate(moves)}
    root = parse(svg(pos, values=values))
    drawn = {e.get("data-cell"): e for e in with_class(root, "value")}
    assert set(drawn) == {m.name for m in moves}
    assert drawn["button"].tag == NS + "rect" and drawn["A1"].tag == NS + "polygon"
    for move, value in values.items():
        assert float(drawn[move.name].get("data-value")) == pytest.approx(value)
    low, high = min(values.values()), max(values.values())
    for move, value in values.items():
        assert drawn[move.name].get("fill") == scale_colour((value - low) / (high - low))
    legend = with_class(root, "legend")
    assert len(legend) == 1
    assert (float(legend[0].get("data-min")), float(legend[0].get("data-max"))) == (low, high)


def test_names_and_moves_are_both_keys_case_insensitive():
    pos = catena.Position(size=3)
    root = parse(svg(pos, values={"b2": 1, catena.Move("C3", size=3): 2.5}))
    assert {e.get("data-cell"): e.get("data-value") for e in with_class(root, "value")} == \
        {"B2": "1", "C3": "2.5"}
    assert with_class(root, "button-box") == []            # no button value, no box


def test_scale_runs_from_dark_to_light():
    assert scale_colour(0) == VALUE_SCALE[0] and scale_colour(1) == VALUE_SCALE[-1]
    lightness = [sum(int(scale_colour(t / 20)[k:k + 2], 16) for k in (1, 3, 5)) for t in range(21)]
    assert lightness[0] < lightness[10] < lightness[20]
    root = parse(svg(catena.Position(size=2), values={"A1": 3, "B2": 3}))   # all equal: the middle
    assert {e.get("fill") for e in with_class(root, "value")} == {scale_colour(0.5)}


def test_numbers_printed_only_when_large_enough():
    pos = middle_game()
    values = {m: 0.25 * i for i, m in enumerate(pos.legal_moves())}
    labels = with_class(parse(svg(pos, values=values)), "value-label")
    assert sorted(e.text for e in labels) == sorted(format_value(v) for v in values.values())
    assert with_class(parse(svg(pos, values=values, size=150)), "value-label") == []
    assert len(with_class(parse(svg(pos, values=values, size=150)), "value")) == len(values)


def test_pv_numbered_in_order_in_the_movers_colours():
    pos = middle_game()                                     # white to move
    root = parse(svg(pos, pv=["C3", "button", "H4", "D6"]))
    marks = with_class(root, "pv")
    assert [(m.get("data-order"), m.get("data-cell")) for m in marks] == \
        [("1", "C3"), ("2", "button"), ("3", "H4"), ("4", "D6")]
    fills = [m.find(NS + "circle").get("fill") for m in marks]
    assert fills == [COLOURS["white"], COLOURS["black"], COLOURS["white"], COLOURS["black"]]
    assert [m.find(NS + "text").text for m in marks] == ["1", "2", "3", "4"]
    assert len(with_class(root, "button-box")) == 1          # the button's pv mark needs its box


def test_double_placement_pv_colours():
    pos = catena.Position(size=4, game_type="double")
    root = parse(svg(pos, pv=["D4", "A1", "B1", "G7"]))       # black one stone, then white two
    fills = [m.find(NS + "circle").get("fill") for m in with_class(root, "pv")]
    assert fills == [COLOURS["black"], COLOURS["white"], COLOURS["white"], COLOURS["black"]]


@pytest.mark.parametrize("kwargs, error, words", [
    ({"values": [("F6", 1)]}, TypeError, "values must be a dict"),
    ({"values": {"F6": "1"}}, TypeError, "value of F6 must be a number"),
    ({"values": {"F6": True}}, TypeError, "value of F6 must be a number"),
    ({"values": {"F6": math.nan}}, ValueError, "value of F6 must be a number, not NaN"),
    ({"values": {"F6": math.inf}}, ValueError, "finite"),
    ({"values": {"Z9": 1}}, ValueError, "Z9"),
    ({"values": {"F6": 1, "f6": 2}}, ValueError, "given twice"),
    ({"values": {6: 1}}, TypeError, "Move or a cell name"),
    ({"values": {catena.Move("B2", size=3): 1}}, ValueError, "side-3"),
    ({"pv": "F6"}, TypeError, "pv must be a list"),
    ({"pv": ["F6", "F6"]}, ValueError, "pv move 2 \\(F6\\)"),
    ({"pv": ["G6", "A1", "button", "button"]}, ValueError, "pv move 4"),
    ({"legend": 3}, TypeError, "legend"),
])
def test_bad_values_and_pv(kwargs, error, words):
    pos = catena.Position(size=6)
    before = pos.copy()
    with pytest.raises(error, match=words):
        svg(pos, **kwargs)
    assert pos == before


def test_no_button_in_double_placement():
    with pytest.raises(ValueError, match="no button"):
        svg(catena.Position(size=3, game_type="double"), values={"button": 1})


def test_heatmap_png_reads_as_its_scale():
    """Rendered with cairosvg: a cell's colour away from its number is its scale colour."""
    cairosvg = pytest.importorskip("cairosvg")
    Image = pytest.importorskip("PIL.Image")
    pos = middle_game()
    values = {m: float(i % 9) for i, m in enumerate(pos.legal_moves())}
    board = svg(pos, values=values, pv=["C3"], size=600)
    root = parse(board)
    image = Image.open(io.BytesIO(cairosvg.svg2png(bytestring=str(board).encode()))).convert("RGB")
    vx, vy, vw, _ = map(float, root.get("viewBox").split())
    scale = 600 / vw
    for element in with_class(root, "value"):
        if element.get("data-cell") == "button":
            continue
        points = [tuple(map(float, p.split(","))) for p in element.get("points").split()]
        cx = sum(p[0] for p in points) / 6
        top = min(p[1] for p in points)
        x, y = (cx - vx) * scale, (top + 3 - vy) * scale          # just inside the upper corner
        expected = element.get("fill")
        got = image.getpixel((int(x), int(y)))
        want = tuple(int(expected[k:k + 2], 16) for k in (1, 3, 5))
        assert max(abs(a - b) for a, b in zip(got, want)) < 40, (element.get("data-cell"), got, want)
