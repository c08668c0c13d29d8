"""The robot interface: a robot answers one decision request with one action.

Robots are stateless between requests (the bus is request/response and any worker may
serve any request), so everything a robot knows comes from the request: the seat's view
(exactly what a human in that seat sees), the mask and the options.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import ClassVar

from paiju.games import GameAction
from paiju.protocol import DecisionRequest


class Robot(ABC):
    """A robot player of one game. Subclasses set ``game``, ``name`` and ``description`` and
    implement ``decide``."""

    game: ClassVar[str]
    name: ClassVar[str]
    version: ClassVar[str] = "1"  # a new version is a new account with its own rating (paiju/records/)
    # one line for a player choosing an opponent (the lobby's robot menu); when empty, the
    # first line of the class's docstring stands in
    description: ClassVar[str] = ""
    cpu_heavy: ClassVar[bool] = False  # workers run heavy robots in a process pool

    @abstractmethod
    def decide(self, request: DecisionRequest) -> GameAction:
        """One of ``request.options`` (with ``pick`` of its bytes)."""


class RandomRobot(Robot):
    """The baseline of every game: a uniform choice among the legal options.

    Seeded from the room and the prompt, so a replayed match makes the same choices.
    """

    name = "random"
    description = "plays a legal move at random: the baseline"

    def decide(self, request: DecisionRequest) -> GameAction:
        rng = random.Random(f"{request.room}:{request.seat}:{request.prompt_id}")
        opt = rng.choice(request.options)
        return GameAction(opt.code, bytes(rng.sample(list(opt.cards), opt.pick)))
