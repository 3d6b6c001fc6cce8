"""Shared fixtures of the vision tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# The shared photo sets: ../shared/dice beside the checkout, or BUNCO_DICE_SETS.
DICE = Path(os.environ.get("BUNCO_DICE_SETS", Path(__file__).resolve().parents[3] / "shared" / "dice"))


@pytest.fixture(scope="module")
def dice_sets() -> Path:
    if not (DICE / "penlington-wood" / "labels.csv").is_file():
        pytest.skip(f"shared dice photo sets not found at {DICE} (set BUNCO_DICE_SETS)")
    return DICE
