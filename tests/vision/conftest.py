"""Shared helpers for the vision tests: synthetic sources and a reader that knows the truth."""

from __future__ import annotations

import random

import pytest

from vision.dice import Die, FrameReading, Unreadable
from vision.synthetic import SyntheticRolls


class SceneReader:
    """A stand-in pip reader that reports what the synthetic source really drew.

    It lets the settle tests check the settle logic alone: it reads a die only where one was
    drawn, tumbling dice show whatever face is up, dice under the rim are unreadable. It does
    not look for hands (the detector must), and it reads dice under a hand as if it could see
    them, which makes the hand tests stricter, not easier.
    """

    def __init__(self, source: SyntheticRolls) -> None:
        self.source = source
        self.calls = 0

    def __call__(self, frame) -> FrameReading:
        self.calls += 1
        size = self.source.die_size_px
        dice, unreadable = [], []
        for d in self.source.scene.dice:
            box = ((d.x, d.y), (size, size), d.angle)
            if d.hidden:
                unreadable.append(Unreadable(box, "occluded"))
            else:
                dice.append(Die(d.value, box, 0.9))
        return FrameReading(tuple(dice), tuple(unreadable), size)


@pytest.fixture
def synthetic():
    """Make a SyntheticRolls source with a fixed seed and a small frame rate (fast tests)."""

    def make(script, *, seed: int = 1, fps: float = 15.0, **kw) -> SyntheticRolls:
        return SyntheticRolls(script, rng=random.Random(seed), fps=fps, **kw)

    return make


@pytest.fixture
def scene_reader():
    """The SceneReader class (test modules cannot import conftest under --import-mode=importlib)."""
    return SceneReader
