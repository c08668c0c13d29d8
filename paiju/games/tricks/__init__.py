"""The simple trick-taking game of design.md §7.3: cards 1..2n, n to each of two seats, no suits.

The leader plays any card, the follower any card, the higher card wins the trick and
its owner leads next; the result is the difference in tricks.

>>> from paiju.games.tricks import Tricks
>>> g = Tricks(seed=3, rules=Tricks.ruleset(n=2))
>>> [tricks_numbers(g.concealed(s)) for s in (0, 1)]
[[1, 2], [3, 4]]
"""

from paiju.games.tricks.game import Tricks, TricksRules, tricks_numbers

__all__ = ["Tricks", "TricksRules", "tricks_numbers"]
