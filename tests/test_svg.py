"""The SVG drawing (catena.svg): well-formed SVG whose elements match the position."""

import io
import random
import re
import xml.etree.ElementTree as ET

import pytest

import catena
from catena.svg import SvgBoard, svg

NS = "{http://www.w3.org/2000/svg}"


def parse(board):
    root = ET.fromstring(str(board))
    assert root.tag == NS + "svg"
    return root


def with_class(root, name):
    """Elements whose class attribute holds the word ``name``."""
    return [e for e in root.iter() if name in e.get("class", "").split()]


def stones(root):
    out = {}
    for e in with_class(root, "stone"):
        assert e.tag == NS + "circle"
        colours = {"black", "white"} & set(e.get("class").split())
        assert len(colours) == 1
        out[e.get("data-cell")] = colours.pop()
    return out


def expected_stones(pos):
    colours = {1: "black", 2: "white"}
    return {name: colours[int(v)] for name, v in zip(catena.cells(pos.size), pos.to_array()) if v}


def random_position(size, plies, seed, game_type="komi", button=0.05):
    rng = random.Random(seed)
    pos = catena.Position(size=size, game_type=game_type)
    for _ in range(plies):
        if pos.is_game_over():
            break
        moves = pos.legal_moves()
        take_button = moves[-1].name == "button" and rng.random() < button
        pos.push(moves[-1] if take_button else rng.choice([m for m in moves if m.name != "button"]))
    return pos


POSITIONS = [(size, plies, seed) for size in range(1, 11) for plies, seed in ((0, 0), (size, 1), (400, 2))]


@pytest.mark.parametrize("size, plies, seed", POSITIONS)
def test_parses_and_stones_match(size, plies, seed):
    pos = random_position(size, plies, seed)
    board = svg(pos, legal=True)
    root = parse(board)
    assert stones(root) == expected_stones(pos)
    cells = [e.get("data-cell") for e in with_class(root, "cell")]
    assert sorted(cells) == sorted(catena.cells(size))
    assert len(with_class(root, "status-line")) >= 1


def test_viewbox_and_size():
    pos = catena.Position(size=6)
    root = parse(svg(pos, size=500))
    assert root.get("width") == "500"
    _, _, w, h = map(float, root.get("viewBox").split())
    assert int(root.get("height")) == pytest.approx(500 * h / w, abs=0.01)
    small = float(parse(svg(catena.Position(size=3))).get("width"))
    large = float(parse(svg(catena.Position(size=10))).get("width"))
    assert large > 2 * small


@pytest.mark.parametrize("size", [1, 2, 6, 10])
def test_coordinates(size):
    pos = catena.Position(size=size)
    labels = [e.text for e in with_class(parse(svg(pos)), "coordinate")]
    letters = [chr(64 + c) for c in range(1, 2 * size)]
    numbers = [str(r) for r in range(1, 2 * size)]
    assert sorted(labels) == sorted(letters + numbers)
    assert with_class(parse(svg(pos, coordinates=False)), "coordinate") == []


def test_last_move_marker():
    pos = catena.Position(size=6)
    assert with_class(parse(svg(pos)), "last-move") == []
    assert with_class(parse(svg(pos)), "last-move-note") == []
    pos.push("F6")
    marks = with_class(parse(svg(pos)), "last-move")
    assert [m.get("data-cell") for m in marks] == ["F6"]
    stone = [e for e in with_class(parse(svg(pos)), "stone") if e.get("data-cell") == "F6"][0]
    assert (marks[0].get("cx"), marks[0].get("cy")) == (stone.get("cx"), stone.get("cy"))
    assert with_class(parse(svg(pos, last_move=False)), "last-move") == []
    pos.push("G6")
    assert [m.get("data-cell") for m in with_class(parse(svg(pos)), "last-move")] == ["G6"]


def test_button_note():
    pos = catena.Position(size=4)
    pos.push("D4")
    pos.push("button")
    root = parse(svg(pos))
    assert with_class(root, "last-move") == []
    notes = with_class(root, "last-move-note")
    assert len(notes) == 1 and "button" in notes[0].text and "white" in notes[0].text
    assert with_class(parse(svg(pos, last_move=False)), "last-move-note") == []
    status = " ".join(e.text for e in with_class(root, "status-line"))
    assert "black to move" in status and "button: white" in status


@pytest.mark.parametrize("size, plies, seed", [(3, 400, 5), (6, 30, 6), (6, 60, 7), (6, 400, 8), (10, 200, 9)])
def test_bounded_ribbons(size, plies, seed):
    pos = random_position(size, plies, seed)
    halos = with_class(parse(svg(pos)), "bounded")
    drawn = sorted(tuple(sorted(h.get("data-cells").split())) for h in halos)
    expected = sorted(tuple(sorted(r.cells)) for r in pos.ribbons() if r.bounded)
    assert drawn == expected
    assert with_class(parse(svg(pos, bounded=False)), "bounded") == []


def test_bounded_ribbons_appear_and_finished_game():
    pos = catena.Position(size=1)
    assert with_class(parse(svg(pos)), "bounded") == []
    pos.push("A1")                                   # F2: the singleton is bounded, Black wins
    root = parse(svg(pos))
    assert [h.get("data-cells") for h in with_class(root, "bounded")] == ["A1"]
    status = " ".join(e.text for e in with_class(root, "status-line"))
    assert "game over: black wins" in status and "black 1" in status and "white 0.5" in status


@pytest.mark.parametrize("size, plies, seed, game_type",
                         [(1, 0, 0, "komi"), (4, 0, 0, "komi"), (6, 20, 1, "komi"), (6, 400, 2, "komi"),
                          (5, 9, 3, "double"), (5, 30, 4, "double"), (3, 1, 5, "nokomi"), (9, 100, 6, "komi")])
def test_legal_markers(size, plies, seed, game_type):
    pos = random_position(size, plies, seed, game_type=game_type)
    expected = sorted(m.name for m in pos.legal_moves() if m.name != "button")
    marks = with_class(parse(svg(pos, legal=True)), "legal")
    assert sorted(m.get("data-cell") for m in marks) == expected
    assert with_class(parse(svg(pos)), "legal") == []


def test_repr_svg():
    pos = catena.Position(size=3)
    pos.push("B2")
    board = svg(pos)
    assert isinstance(board, SvgBoard) and isinstance(board, str)
    assert board._repr_svg_() == str(board)
    parse(board._repr_svg_())


def test_a_game_draws_itself_in_a_notebook():
    """IPython's display machinery (what a notebook uses) renders a Game as its board's SVG,
    the empty board before the komi and the position's stones after."""
    from IPython.core.formatters import DisplayFormatter

    game = catena.Game(size=3)
    data, _ = DisplayFormatter().format(game)
    assert data["image/svg+xml"] == str(svg(game)) and stones(parse(data["image/svg+xml"])) == {}
    game.choose_komi(2)
    game.choose_colour("white")
    game.push("B2")
    game.push("D4")
    data, _ = DisplayFormatter().format(game)
    assert data["image/svg+xml"] == game._repr_svg_() == str(svg(game.position))
    assert stones(parse(data["image/svg+xml"])) == {"B2": "black", "D4": "white"}


@pytest.mark.parametrize("kwargs, error", [
    ({"size": "300"}, TypeError), ({"size": 300.0}, TypeError), ({"size": True}, TypeError),
    ({"size": 0}, ValueError), ({"size": -5}, ValueError),
    ({"coordinates": 1}, TypeError), ({"last_move": None}, TypeError),
    ({"legal": "yes"}, TypeError), ({"bounded": 0}, TypeError),
])
def test_bad_options(kwargs, error):
    with pytest.raises(error, match=next(iter(kwargs))):
        svg(catena.Position(size=3), **kwargs)


def test_bad_position_and_positional_options():
    with pytest.raises(TypeError, match="catena.Position"):
        svg("F6")
    with pytest.raises(TypeError):
        svg(catena.Position(size=3), 300)              # options are keyword-only
    with pytest.raises(TypeError):
        svg(catena.Position(size=3), colour=True)


def test_render_png():
    """Render with cairosvg (pip install cairosvg; needs the system cairo library)."""
    cairosvg = pytest.importorskip("cairosvg")
    Image = pytest.importorskip("PIL.Image")
    pos = catena.Position(size=6)
    for move in ["F6", "G6", "B2", "K11"]:
        pos.push(move)
    board = svg(pos, size=480, legal=True)
    root = parse(board)
    png = cairosvg.svg2png(bytestring=str(board).encode())
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.size == (480, int(root.get("height")))
    vx, vy, vw, _ = map(float, root.get("viewBox").split())
    scale = 480 / vw

    def pixel(element):
        x = (float(element.get("cx")) - vx) * scale
        y = (float(element.get("cy")) - vy) * scale
        return image.getpixel((int(x), int(y)))

    by_cell = {e.get("data-cell"): e for e in with_class(root, "stone")}
    # off the centre, away from the last-move marker: the stone's own colour
    for name, colour in [("F6", "black"), ("G6", "white"), ("B2", "black")]:
        element = by_cell[name]
        off = ET.Element("c", {"cx": str(float(element.get("cx")) + 0.5 * float(element.get("r"))),
                               "cy": element.get("cy")})
        if colour == "black":
            assert max(pixel(off)) < 80, name
        else:
            assert min(pixel(off)) > 200, name
    red = pixel(with_class(root, "last-move")[0])
    assert red[0] > 180 and red[1] < 100 and red[2] < 100
    assert len(image.getcolors(1 << 20)) > 10        # not blank
    # an empty cell's centre away from any legal dot is the board colour, not white
    cell = [e for e in with_class(root, "cell") if e.get("data-cell") == "A1"][0]
    points = [tuple(map(float, p.split(","))) for p in re.findall(r"[-\d.]+,[-\d.]+", cell.get("points"))]
    cx = sum(p[0] for p in points) / 6
    cy = sum(p[1] for p in points) / 6 + 10
    assert pixel(ET.Element("c", {"cx": str(cx), "cy": str(cy)})) != (255, 255, 255)


def test_svg_of_a_game():
    """catena.svg(Game) draws the game's position; before the komi, its empty board."""
    game = catena.Game(size=3)
    empty = catena.svg(game)
    assert empty.startswith("<svg") and 'class="stone ' not in empty
    game.choose_komi(2)
    game.choose_colour("white")
    game.push("B2")
    assert catena.svg(game, legal=True) == catena.svg(game.position, legal=True)
    assert catena.svg(game).count('class="stone ') == 1
