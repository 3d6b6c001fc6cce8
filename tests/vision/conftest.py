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
