"""Contract bridge: the rules engine (auction, play, claims), duplicate scoring, IMPs and PBN.

>>> from games.bridge import score, imps
>>> score("4S", False, 10), score("6HX", True, 11), imps(620 - 170)
(420, -200, 10)
"""

from .deal import BoardSpec, board_dealer, board_vulnerability, format_deal, parse_deal
from .game import Bridge, BridgeRules, trick_winner
from .scoring import Contract, contract_score, imps, score

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
