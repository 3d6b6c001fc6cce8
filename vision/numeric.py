"""Small numeric helpers shared by the frame stage and its checks (no OpenCV, no constants)."""

from __future__ import annotations

import numpy as np


def median(a: np.ndarray) -> float:
    """np.median of an array with no NaN (the mean of the middle two when even: in the
    array's own type for floats, as np.median takes it), by one partition: np.median's own
    checks cost five times the partition on a frame's few thousand values. The lower middle
    value is the largest of those the partition puts before the upper one (a partition at
    both middles costs up to ten times as much on values with many ties: a noise measure's
    whole numbers)."""
    a = a.ravel()
    n = a.size
    if not n:
        return float("nan")
    k = n // 2
    part = np.partition(a, k)
    if n % 2:
        return float(part[k])
    lower = part[:k].max()
    if a.dtype.kind == "f":
        return float((lower + part[k]) / a.dtype.type(2))
    return (float(lower) + float(part[k])) / 2.0
