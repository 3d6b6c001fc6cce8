"""Scoring: exact match, die recall with box matching, extra dice, label issues."""

from __future__ import annotations

from pathlib import Path

from vision.dice import Die, FrameReading
from vision.evaluate import LabelledImage, score_image


def _die(value, x, y):
    return Die(value, ((x, y), (40.0, 40.0), 0.0), 0.9)


IMAGE = LabelledImage("a.jpg", Path("a.jpg"), (2, 5),
                      ((5, 0.25, 0.25, 0.1, 0.1), (2, 0.75, 0.75, 0.1, 0.1)))


def test_all_right():
    s = score_image(IMAGE, FrameReading((_die(5, 100, 100), _die(2, 300, 300))), 400, 400)
    assert s.exact and s.recalled == 2 and s.extra == 0 and s.wrong == 0


def test_wrong_value_and_extra_die():
    reading = FrameReading((_die(6, 100, 100), _die(2, 300, 300), _die(1, 200, 30)))
    s = score_image(IMAGE, reading, 400, 400)
    assert not s.exact and s.recalled == 1 and s.extra == 1 and s.wrong == 1


def test_a_die_read_twice_or_not_at_all_is_not_read_wrong():
    # a re-roll costs a throw; only a die read alone as another value is scored wrong by a table
    reading = FrameReading((_die(5, 100, 100), _die(6, 104, 104)))
    s = score_image(IMAGE, reading, 400, 400)
    assert s.recalled == 0 and s.wrong == 0


def test_a_set_counts_its_wrong_dice_only_where_dice_have_boxes():
    from vision.evaluate import SetScore

    boxed = score_image(IMAGE, FrameReading((_die(6, 100, 100), _die(3, 300, 300))), 400, 400)
    assert SetScore([boxed, boxed]).wrong_dice == 4
    assert SetScore([boxed]).as_dict()["wrong_dice"] == 2
    unboxed = LabelledImage("b.jpg", Path("b.jpg"), (2, 5))
    s = score_image(unboxed, FrameReading((_die(6, 100, 100), _die(3, 300, 300))), 400, 400)
    assert SetScore([s]).wrong_dice is None


def test_two_dice_in_one_box_do_not_count():
    reading = FrameReading((_die(5, 100, 100), _die(5, 104, 104), _die(2, 300, 300)))
    s = score_image(IMAGE, reading, 400, 400)
    assert s.recalled == 1 and not s.exact


def test_label_issue_images_score_labelled_dice_only():
    partial = LabelledImage(IMAGE.file, IMAGE.path, IMAGE.values, IMAGE.boxes_norm, partial=True)
    reading = FrameReading((_die(5, 100, 100), _die(2, 300, 300), _die(3, 200, 30)))
    s = score_image(partial, reading, 400, 400)
    assert s.exact and s.extra == 0 and s.recalled == 2
    s = score_image(IMAGE, reading, 400, 400)
    assert not s.exact and s.extra == 1


def test_touching_dice_whose_grown_boxes_overlap_are_each_recalled():
    # two touching dice, labelled boxes 40 px wide with centres 36 px apart: grown by
    # BOX_SLACK they overlap, and each read die's centre lies in both
    touching = LabelledImage("t.jpg", Path("t.jpg"), (3, 4),
                             ((3, 0.455, 0.5, 0.1, 0.1), (4, 0.545, 0.5, 0.1, 0.1)))
    reading = FrameReading((_die(3, 195, 200), _die(4, 205, 200)))
    s = score_image(touching, reading, 400, 400)
    assert s.recalled == 2 and s.extra == 0 and s.exact
    # a die read twice is still not recalled, and a wrong value is still wrong
    s = score_image(touching, FrameReading((_die(3, 180, 200), _die(3, 186, 200), _die(5, 205, 200))), 400, 400)
    assert s.recalled == 0 and s.extra == 0


def test_an_unreadable_region_counts_as_a_re_roll_asked_for():
    from vision.dice import Unreadable
    from vision.evaluate import SetScore

    right = FrameReading((_die(5, 100, 100), _die(2, 300, 300)))
    asked = FrameReading((_die(5, 100, 100),), (Unreadable(((300.0, 300.0), (40.0, 40.0), 0.0), "unclear"),))
    scores = [score_image(IMAGE, right, 400, 400), score_image(IMAGE, asked, 400, 400)]
    assert [s.unreadable for s in scores] == [0, 1]
    assert SetScore(scores).rerolls == 1 and SetScore(scores).as_dict()["rerolls"] == 1
