"""Slow, independent reference implementation of Catena (a test oracle).

Rule numbers (R1..R25) refer to docs/rules.md.  Everything is
recomputed from the stone dictionary on every query: groups by flood fill,
legality by building the group after a hypothetical placement, boundedness by
testing every empty cell next to the ribbon.  Nothing is cached.
"""

from collections import Counter

BLACK, WHITE = "black", "white"
GAME_TYPES = ("komi", "nokomi", "double")
SCORINGS = ("standard", "longest", "square")
KOMI_MAX = {"standard": 15, "longest": 15, "square": 1000}  # R22

# The six neighbour offsets of R3.
OFFSETS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1))


def _opponent(colour):
    return WHITE if colour == BLACK else BLACK


# ---------------------------------------------------------------- geometry (R1-R3)

def _on_board(n, c, r):
    """R2: 1 <= c, r <= 2n-1 and |c - r| <= n-1."""
    return 1 <= c <= 2 * n - 1 and 1 <= r <= 2 * n - 1 and abs(c - r) <= n - 1


def _cells(n):
    """All cells in index order: by column, then by row."""
    return [(c, r) for c in range(1, 2 * n) for r in range(1, 2 * n) if _on_board(n, c, r)]


def _name(cell):
    c, r = cell
    return chr(ord("A") + c - 1) + str(r)


def cell_names(size):
    return [_name(cell) for cell in _cells(size)]


def _parse(n, name):
    """R2: column letter + row number, case-insensitive.  ValueError if not on board."""
    if not isinstance(name, str) or len(name) < 2 or not name[0].isalpha() or not name[1:].isdigit():
        raise ValueError("bad cell name: %r" % (name,))
    c = ord(name[0].upper()) - ord("A") + 1
    r = int(name[1:])
    if name[1] == "0" or not _on_board(n, c, r):
        raise ValueError("cell not on the board: %r" % (name,))
    return (c, r)


def _neighbours(n, cell):
    c, r = cell
    return [(c + dc, r + dr) for dc, dr in OFFSETS if _on_board(n, c + dc, r + dr)]


# ------------------------------------------------------- groups and ribbons (R4-R6)

def _group_of(n, stones, start):
    """Flood fill: the maximal connected set of stones containing start (R4)."""
    group, todo = {start}, [start]
    while todo:
        cell = todo.pop()
        for nb in _neighbours(n, cell):
            if nb in stones and nb not in group:
                group.add(nb)
                todo.append(nb)
    return frozenset(group)


def _groups(n, stones):
    """All groups, ordered by their first cell in index order."""
    seen, result = set(), []
    for cell in _cells(n):
        if cell in stones and cell not in seen:
            g = _group_of(n, stones, cell)
            seen |= g
            result.append(g)
    return result


def _is_ribbon(n, group):
    """R4: a connected group is an induced simple path iff every stone has at most
    two neighbours inside it and it has exactly len-1 adjacencies (no cycle)."""
    degrees = [sum(1 for nb in _neighbours(n, s) if nb in group) for s in group]
    return max(degrees) <= 2 and sum(degrees) == 2 * (len(group) - 1)


# ---------------------------------------------------------------- legality (R7)

def _is_legal(n, stones, cell):
    """R7: after placing on the empty cell, the group holding it is a ribbon."""
    if not _on_board(n, *cell) or cell in stones:
        return False
    after = set(stones) | {cell}
    return _is_ribbon(n, _group_of(n, after, cell))


def _legal_cells(n, stones):
    return [cell for cell in _cells(n) if _is_legal(n, stones, cell)]


# ------------------------------------------------------------- boundedness (R9)

def _is_bounded(n, stones, ribbon):
    """R9: no empty cell adjacent to a stone of the ribbon is a legal placement."""
    for s in ribbon:
        for nb in _neighbours(n, s):
            if nb not in stones and _is_legal(n, stones, nb):
                return False
    return True


def _bounded_ribbons(n, stones):
    return {g for g in _groups(n, stones) if _is_bounded(n, stones, g)}


def can_place_two(n, stones):
    """R20: some legal x leaves at least one legal cell after it is placed.
    (Claims never change legality, R8, so they need not be made here.)"""
    return any(_legal_cells(n, stones | {x}) for x in _legal_cells(n, stones))


def _majority(board, ribbon):
    """The colour with more stones in the ribbon, or None on a tie (R12, R21)."""
    counts = Counter(board[s] for s in ribbon)
    if counts[BLACK] == counts[WHITE]:
        return None
    return BLACK if counts[BLACK] > counts[WHITE] else WHITE


# ---------------------------------------------------------------- the game

class RefPosition:
    def __init__(self, size, game_type="komi", scoring="standard", komi=0):
        if not (isinstance(size, int) and 1 <= size <= 10):
            raise ValueError("size must be 1..10 (R1)")
        if game_type not in GAME_TYPES:
            raise ValueError("unknown game type %r" % (game_type,))
        if scoring not in SCORINGS:
            raise ValueError("unknown scoring %r" % (scoring,))
        if not isinstance(komi, int) or isinstance(komi, bool):
            raise ValueError("komi must be an integer (R17)")
        if game_type != "komi" and komi != 0:
            raise ValueError("komi is 0 in nokomi and double placement (R22)")
        if not 0 <= komi <= KOMI_MAX[scoring]:
            raise ValueError("komi out of range for %s scoring (R22)" % scoring)
        self.size, self.game_type, self.scoring, self.komi = size, game_type, scoring, komi
        self._board = {}               # (c, r) -> colour; colours after claims
        self._mover = BLACK            # R13 / R18 / R19: Black moves first
        self._button_taker = None
        self._moves = []               # history: cell names and "button"
        self._last_placer = None       # colour of the last placed stone (R15)
        self._last_claims = []
        # Double placement: stones the mover still has to place this turn (R19).
        self._stones_left = 1 if game_type == "double" else None

    # -- helpers

    def _stones(self):
        return set(self._board)

    def _can_place_two(self):
        return can_place_two(self.size, self._stones())

    def _button_allowed(self):
        if self.game_type == "double" or self._button_taker is not None:
            return False                                  # R19, R13
        if self.game_type == "nokomi" and not self._moves:
            return False                                  # R18: P1 must place
        return True

    def _final_button(self):
        """Button holder at the end: taker, else who did not place the last stone (R15)."""
        if self.game_type == "double":
            return None
        if self._button_taker is not None:
            return self._button_taker
        return _opponent(self._last_placer)

    # -- queries

    def to_move(self):
        return self._mover

    def button(self):
        return self._button_taker

    def is_over(self):
        if self.game_type == "double":
            # R20: checked at the start of each turn after Black's single first stone.
            # Mid-turn a legal cell always remains, by the R20 choice of the first stone.
            return self._stones_left == 2 and not self._can_place_two()
        return not _legal_cells(self.size, self._stones())     # R14

    def legal_moves(self):
        if self.is_over():
            return set()
        stones = self._stones()
        cells = _legal_cells(self.size, stones)
        if self.game_type == "double" and self._stones_left == 2:
            # R20: the first stone of a two-stone turn must leave a legal cell.
            cells = [x for x in cells if _legal_cells(self.size, stones | {x})]
        moves = {_name(x) for x in cells}
        if self._button_allowed():
            moves.add("button")
        return moves

    def colours(self):
        board = dict(self._board)
        if self.game_type == "double" and self.is_over():
            # R21: unbounded ribbons go to the majority; a tie to the player to move.
            stones = set(board)
            for g in _groups(self.size, stones):
                if not _is_bounded(self.size, stones, g):
                    owner = _majority(board, g) or self._mover
                    for s in g:
                        board[s] = owner
        return {_name(cell): colour for cell, colour in board.items()}

    def ribbons(self):
        stones = self._stones()
        result = []
        for g in _groups(self.size, stones):
            assert _is_ribbon(self.size, g), "R5 invariant broken"
            result.append((frozenset(_name(s) for s in g), _is_bounded(self.size, stones, g)))
        return result

    def last_claims(self):
        return list(self._last_claims)

    # -- moves

    def play(self, move):
        if not isinstance(move, str):
            raise ValueError("move must be a string")
        key = "button" if move.lower() == "button" else move.upper()
        if key not in self.legal_moves():
            raise ValueError("illegal move %r" % (move,))
        self._moves.append(key)
        if key == "button":                               # R13: takes the turn
            self._button_taker = self._mover
            self._last_claims = []
            self._mover = _opponent(self._mover)
            return
        cell = _parse(self.size, key)
        placer = self._mover
        before = _bounded_ribbons(self.size, self._stones())
        self._board[cell] = placer
        after = _bounded_ribbons(self.size, self._stones())
        claims = []
        # R11: bounded now and not a bounded ribbon (same cell set) before.
        for rib in sorted(after - before, key=lambda g: min(_cells(self.size).index(s) for s in g)):
            owner = _majority(self._board, rib) or _opponent(placer)   # R12
            for s in rib:
                self._board[s] = owner
            claims.append((frozenset(_name(s) for s in rib), owner))
        self._last_claims = claims
        self._last_placer = placer
        if self.game_type == "double":                    # R19: 1 stone, then 2 per turn
            self._stones_left -= 1
            if self._stones_left == 0:
                self._mover = _opponent(self._mover)
                self._stones_left = 2
        else:
            self._mover = _opponent(self._mover)

    # -- result

    def outcome(self):
        if not self.is_over():
            raise ValueError("the game is not over")
        colours = self.colours()
        button = self._final_button()
        owned = []                                        # (owner, length) per ribbon
        for cells, _bounded in self.ribbons():
            owners = {colours[c] for c in cells}
            assert len(owners) == 1, "a ribbon is not one colour at the end"
            owned.append((owners.pop(), len(cells)))
        bonus = {BLACK: 0.0, WHITE: float(self.komi)}
        if button is not None:
            bonus[button] += 0.5
        if self.scoring == "longest":
            return (longest_winner(owned, self.komi, button), None, None)
        score = dict(bonus)
        for owner, length in owned:                       # R23 / R25
            score[owner] += length if self.scoring == "standard" else length * length
        b, w = score[BLACK], score[WHITE]
        winner = BLACK if b > w else WHITE if w > b else None
        return (winner, b, w)



def longest_winner(owned, komi, button):
    """R24 from the (owner, length) of every ribbon: komi onto one of White's longest;
    cancel equal-length pairs; the longest left wins, else the button holder."""
    lengths = {BLACK: Counter(), WHITE: Counter()}
    for owner, length in owned:
        lengths[owner][length] += 1
    if lengths[WHITE]:
        longest = max(lengths[WHITE])
        lengths[WHITE][longest] -= 1
        lengths[WHITE][longest + komi] += 1
    remaining = []
    for length in set(lengths[BLACK]) | set(lengths[WHITE]):
        diff = lengths[BLACK][length] - lengths[WHITE][length]
        if diff:
            remaining.append((length, BLACK if diff > 0 else WHITE))
    if not remaining:
        return button                                     # None in double: a draw
    return max(remaining)[1]
