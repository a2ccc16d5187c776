"""A tour of catena's public API; CI type-checks it with ``mypy --strict`` and runs it."""

from __future__ import annotations

import catena
from catena.observation import transform_action, transform_tensor
from catena.players import FlatMonteCarloPlayer


def main() -> None:
    names: tuple[str, ...] = catena.cells(3)
    index: int = catena.parse_cell("B2", 3)
    name: str = catena.cell_name(index, 3)
    around: tuple[int, ...] = catena.neighbours(name, 3)
    images: tuple[tuple[int, ...], ...] = catena.symmetries(3)
    assert names[index] == name and len(images) == 12 and around

    pos = catena.Position(size=3, game_type="komi", scoring="standard", komi=2)
    moves: list[catena.Move] = pos.legal_moves()
    pos.push(moves[0])
    pos.push("button")
    last: catena.Move | None = pos.peek()
    assert last is not None and last.is_button
    undone: catena.Move = pos.pop()
    assert str(undone) == "button"
    colour: str | None = pos.stone_at("A1")
    ribbons: list[catena.Ribbon] = pos.ribbons()
    claims: list[catena.Claim] = pos.last_claims()
    key: int = pos.zobrist
    board = pos.to_array()
    twin: catena.Position = pos.copy()
    assert twin.zobrist == key and colour == "black" and ribbons and not claims and board.sum() == 1
    nodes: int = catena.perft(pos, 2)
    stats: catena.PlayoutStats = catena.random_playouts(pos, 100, seed=1)
    assert nodes > 0 and stats.games == 100

    search: catena.SearchResult = catena.MCTS(seed=1, score_weight=0.5).search(pos, iterations=500)
    best: catena.Move = search.best_move
    margin: float | None = search.score
    margins: dict[catena.Move, float] = search.scores
    exact: float | None = search.exact
    assert margin is not None and best in margins and exact is None
    solved: catena.SolveResult = catena.solve(pos, max_seconds=30)
    assert solved.solved and best in pos.legal_moves()

    game = catena.Game(size=2, game_type="komi", scoring="square")
    result: catena.GameOutcome | None = game.play(catena.MCTSPlayer(iterations=200, seed=1),
                                                  FlatMonteCarloPlayer(playouts=20, seed=2))
    assert result is not None
    outcome: catena.Outcome = result.outcome
    text: str = catena.write_game(game, P1="MCTS", P2="flat Monte Carlo")
    record: catena.GameRecord = catena.read_game(text)
    replayed: catena.Game = record.game()
    assert replayed.position == game.position
    try:
        catena.read_game("[Size 2]")
    except catena.RecordError as exc:
        where: int | None = exc.line
        assert where == 1
    picture: str = catena.svg(pos, size=300, legal=True)._repr_svg_()
    analysis: catena.Analysis = catena.analyse(pos, iterations=500, exact=True, seed=1)
    line: catena.MoveValue = analysis.moves[0]
    values: dict[catena.Move, float] = analysis.values("margin")
    heatmap: str = catena.svg(pos, values=values, pv=list(analysis.pv[:3]), legend="margin")
    assert line.proven and analysis.exact == solved.value and heatmap.startswith("<svg")
    assert analysis.table().startswith("move") and analysis.svg().startswith("<svg")
    fair: int = catena.fair_komi(2, scoring="standard")
    sides: tuple[str, ...] = catena.GAME_TYPES + catena.SCORINGS
    bytes_used: int = catena.position_bytes(6)
    move = catena.Move("B2", size=3)
    random_move: catena.Move = catena.RandomPlayer(seed=3).choose_move(pos)
    errors: tuple[type[catena.CatenaError], ...] = (catena.CellError, catena.IllegalMoveError,
                                                     catena.SetupError)
    assert picture.startswith("<svg") and fair == 2 and sides and bytes_used <= 2048
    assert move.cell == 4 and random_move in pos.legal_moves() and len(errors) == 3

    # for researchers: action ids, masks, observation tensors, position strings
    action: int = catena.Move("C3", size=3).index
    assert catena.Move.from_index(action, 3) == catena.Move("C3", size=3)
    mask = pos.legal_action_mask()
    legal_ids: list[int] = [i for i in range(len(mask)) if mask[i]]
    planes = pos.observation_tensor()
    shape: tuple[int, int, int] = catena.observation_shape(3)
    image = transform_tensor(planes, 3)
    turned: int = transform_action(legal_ids[0], 3, size=3)
    position_string: str = pos.to_string()
    back: catena.Position = catena.Position.from_string(position_string)
    back.push(turned)
    assert planes.shape == shape == image.shape and back.ply == pos.ply + 1
    print(outcome.winner, result.winner_player, str(pos))


if __name__ == "__main__":
    main()
