"""Plain-text drawing of a position."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from catena._position import Position


#: What the symbols of :func:`board_text` mean, for players.
LEGEND = ("x black stone, o white stone (X, O: in a ribbon that can no longer grow, claimed for good); "
          ". empty cell where a stone may go, - empty cell where no stone may go")


def plural(count: int, word: str, words: str | None = None) -> str:
    """``count`` and the noun in the right number: ``words`` (default ``word + "s"``)
    unless ``count`` is 1.

    >>> plural(1, "game"), plural(3, "game"), plural(0, "opening"), plural(2, "match", "matches")
    ('1 game', '3 games', '0 openings', '2 matches')
    """
    return f"{count} {word if count == 1 else words or word + 's'}"


def claims_text(pos: Position) -> list[str]:
    """The ribbons the last stone closed and who claimed them, one phrase each.

    >>> import catena
    >>> pos = catena.Position(size=2)
    >>> for name in ["A2", "C2", "A1", "B3", "B1"]:
    ...     pos.push(name)
    >>> claims_text(pos)
    ['B3-A2-A1-B1-C2 claimed by black']
    """
    return [f"{'-'.join(claim.cells)} claimed by {claim.owner}" for claim in pos.last_claims()]


def _symbol(colour: str | None, bounded: bool, legal: bool) -> str:
    if colour is None:
        return "." if legal else "-"
    symbol = "x" if colour == "black" else "o"
    return symbol.upper() if bounded else symbol


def board_text(pos: Position) -> str:
    """The board of ``pos`` as text: rows top to bottom, columns lettered along the
    lower edges; then whose move it is, the button and the score.

    Stones are x (black) and o (white), upper case once their ribbon is bounded;
    '.' is a legal empty cell and '-' an empty cell where no stone may go.

    >>> import catena
    >>> pos = catena.Position(size=2)
    >>> pos.push("B2"); pos.push("A1")
    >>> print(pos)
        3 . .
       2 - x .
        1 o - C
           A B
    black to move, button untaken; score: black 1, white 1
    """
    from catena._geometry import cell_coordinates, cells

    n = pos.size
    names = cells(n)
    shown = pos._cell_layers()[1]
    legal = {m.name for m in pos.legal_moves()}
    bounded = {cell for ribbon in pos.ribbons() if ribbon.bounded for cell in ribbon.cells}
    colours = {0: None, 1: "black", 2: "white"}
    lines = []
    grid: dict[int, dict[int, str]] = {}
    for index, (name, (column, row)) in enumerate(zip(names, cell_coordinates(n))):
        grid.setdefault(row, {})[2 * column - row + n] = _symbol(
            colours[shown[index]], name in bounded, name in legal)
    for column in range(1, 2 * n):
        lowest = max(1, column - n + 1)
        grid.setdefault(lowest - 1, {})[2 * column - lowest + 1 + n] = chr(64 + column)
    margin = 3                                   # room for the row numbers
    for row in range(2 * n - 1, -1, -1):
        chars = [" "] * (margin + 4 * n + 2)
        for x, symbol in grid.get(row, {}).items():
            chars[margin + x] = symbol
        if row >= 1:
            first = 2 * max(1, row - n + 1) - row + n + margin
            label = str(row)
            chars[first - 1 - len(label):first - 1] = list(label)
        lines.append("".join(chars).rstrip())
    lines.append(_status(pos))
    return "\n".join(lines)


def status_lines(pos: Position) -> list[str]:
    """Who is to move, the button and the score, or the outcome: two lines, shared by
    the text drawing (which joins them) and the SVG drawing."""
    outcome = pos.outcome()
    if outcome is not None:
        result = "draw" if outcome.winner is None else f"{outcome.winner} wins"
        lines = [f"game over: {result}"]
        if outcome.black_score is not None:
            score = f"black {outcome.black_score:g}, white {outcome.white_score:g}"
            if outcome.button:
                score += f" (button {outcome.button})"
            lines.append(score)
        return lines
    black, white = pos.score()
    turn = f"{pos.to_move} to move"
    if pos.game_type == "double" and pos.stones_left == 2:
        turn += " (two stones)"
    elif pos.game_type == "double" and pos.ply > 0:
        turn += " (second stone)"
    if pos.game_type == "double":
        button = "no button"
    else:
        button = f"button: {pos.button}" if pos.button else "button untaken"
    return [f"{turn}, {button}", f"score: black {black:g}, white {white:g}"]


def _status(pos: Position) -> str:
    return "; ".join(status_lines(pos))
