"""The validation split: by image, stable, about one photo in five."""

from vision.split import VALIDATION_EVERY, is_validation


def test_split_is_stable_and_about_one_in_five():
    files = [f"IMG_{i:04d}.jpg" for i in range(2000)]
    held = [f for f in files if is_validation("byler-d6", f)]
    assert abs(len(held) / len(files) - 1 / VALIDATION_EVERY) < 0.03
    assert held == [f for f in files if is_validation("byler-d6", f)]  # the same every call


def test_split_depends_on_the_set():
    files = [f"dice_{i}.jpg" for i in range(500)]
    a = {f for f in files if is_validation("penlington-wood", f)}
    b = {f for f in files if is_validation("rune55-trays", f)}
    assert a != b
