"""Shared fixtures of the vision tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.synthetic import DICE_ROOT

# The shared photo sets (vision.synthetic.find_dice_root says where they are looked for).
DICE = DICE_ROOT


@pytest.fixture(scope="module")
def dice_sets() -> Path:
    if not (DICE / "penlington-wood" / "labels.csv").is_file():
        pytest.skip(f"shared dice photo sets not found at {DICE} (set BUNCO_DICE_DIR)")
    return DICE


def _holds(score, floor: tuple[float, float, int, int]) -> None:
    """The score is at or above the floor's exact and die recall, at or below its extra and wrong dice."""
    exact, recall, extra, wrong = floor
    assert score.exact >= exact, score.as_dict()
    assert score.die_recall >= recall, score.as_dict()
    assert score.extra_dice <= extra, score.as_dict()
    assert score.wrong_dice <= wrong, score.as_dict()


@pytest.fixture
def holds():
    """The one floor check of both readers' accuracy tests: holds(score, (exact, recall, extra, wrong))."""
    return _holds
