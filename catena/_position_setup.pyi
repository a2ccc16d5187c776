from catena._position import Position

def set_stones(pos: Position, placed: bytes, shown: bytes, to_move: int, button: int,
               last_placer: int) -> None: ...
