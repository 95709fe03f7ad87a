"""PDN game records for American pool checkers (``[GameType "23"]``): read, model, write.

Parsing is apart from the model, as in python-chess: the reader walks the text and calls a visitor
(:class:`GameBuilder` by default); :meth:`GameRecord.accept` walks a record through the same visitor
interface, which is how :func:`write_game` writes.

>>> import io
>>> record = read_game(io.StringIO("1. 11-15 23-19 2. 8-11 1/2-1/2"))
>>> print(write_game(record), end="")
[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "1/2-1/2"]
[GameType "23"]
<BLANKLINE>
1. 11-15 23-19 2. 8-11 1/2-1/2
"""

from engine.pdn.errors import PdnError
from engine.pdn.model import RESULTS, SEVEN_TAGS, GameRecord, MoveNode, default_headers
from engine.pdn.reader import read_game, read_games
from engine.pdn.visitor import BaseVisitor, GameBuilder
from engine.pdn.writer import PdnExporter, write_game, write_games

__all__ = [
    "RESULTS",
    "SEVEN_TAGS",
    "BaseVisitor",
    "GameBuilder",
    "GameRecord",
    "MoveNode",
    "PdnError",
    "PdnExporter",
    "default_headers",
    "read_game",
    "read_games",
    "write_game",
    "write_games",
]
