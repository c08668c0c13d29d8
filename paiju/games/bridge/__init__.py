"""Contract bridge: the rules engine (auction, play, claims), duplicate scoring, IMPs and PBN.

>>> from paiju.games.bridge import score, imps
>>> score("4S", False, 10), score("6HX", True, 11), imps(620 - 170)
(420, -200, 10)
"""

from paiju.games.bridge.deal import BoardSpec, board_dealer, board_vulnerability, format_deal, parse_deal
from paiju.games.bridge.game import Bridge, BridgeRules, trick_winner
from paiju.games.bridge.pbn import result_pbn
from paiju.games.bridge.scoring import Contract, contract_score, imps, score
from paiju.games.registry import add_detail

add_detail(Bridge.name, result_pbn)  # a RESULT carries the board as a PBN file

__all__ = [
    "BoardSpec",
    "Bridge",
    "BridgeRules",
    "Contract",
    "board_dealer",
    "board_vulnerability",
    "contract_score",
    "format_deal",
    "imps",
    "parse_deal",
    "score",
    "trick_winner",
]
