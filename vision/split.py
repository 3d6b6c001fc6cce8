"""Which labelled photos are kept for validation: split by image, the same on every machine.

A learned reader is only as good as the photos it never saw, so training and every benchmark
that quotes validation numbers ask this one function. The split hashes the set's name and the
file's name (not their order, not a random draw), so adding photos to a set never moves an old
photo from one side to the other, and torch is not needed to know the split.
"""

from __future__ import annotations

import hashlib

# One photo in VALIDATION_EVERY is held out of training.
VALIDATION_EVERY = 5


def is_validation(set_name: str, file: str) -> bool:
    """True when `file` of the labelled set `set_name` is a validation photo (never trained on)."""
    digest = hashlib.sha256(f"{set_name}/{file}".encode()).digest()
    return int.from_bytes(digest[:4], "big") % VALIDATION_EVERY == 0
