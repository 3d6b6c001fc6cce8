"""`bunco read` prints one JSON line an image and draws overlays; `bunco bench vision --json`."""

from __future__ import annotations

import json

import cv2

from appliance.cli import main

# dice_sets: the shared photo sets (tests/vision/conftest.py)

# bench vision --drawn's sets: three dice of a colour a tray, 1-8 dice in any looks, three touching
# dice, three dice of the surface's colour
THREE_DICE = ("red/white", "pink/black", "black/white", "blue/white", "touching 3", "camouflage 3")
DRAWN = {*THREE_DICE, "mixed 1-8"}


def test_read_json_and_overlay(dice_sets, tmp_path, capsys):
    img = dice_sets / "penlington-wood" / "images" / "five_44.jpg"
    assert main(["read", str(img), "--overlay", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1
    row = json.loads(lines[0])
    assert set(row) == {"file", "dice", "unreadable", "ms"}
    assert row["file"] == str(img) and row["dice"] == sorted(row["dice"])
    assert row["dice"].count(5) == 5 and isinstance(row["unreadable"], int)
    overlay = cv2.imread(str(tmp_path / "five_44.png"))
    assert overlay is not None and overlay.shape == (480, 640, 3)
    assert (overlay != cv2.imread(str(img))).any()  # something was drawn


def test_read_bad_file_says_so(tmp_path, capsys):
    bad = tmp_path / "not_an_image.jpg"
    bad.write_text("nope")
    assert main(["read", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.strip() == f"bunco read: {bad}: " + (
        "not an image (OpenCV knows no picture format that starts like it)")


def _two_image_set(tmp_path, dice_sets):
    # a two-image set laid out like the shared ones
    src = dice_sets / "penlington-wood"
    (tmp_path / "images").mkdir(parents=True)
    keep = ["five_44.jpg", "dice_1.jpg"]
    lines = (src / "labels.csv").read_text().splitlines()
    (tmp_path / "labels.csv").write_text("\n".join([lines[0]] + [l for l in lines if l.split(",")[0] in keep]) + "\n")
    blines = (src / "boxes.csv").read_text().splitlines()
    (tmp_path / "boxes.csv").write_text("\n".join([blines[0]] + [l for l in blines if l.split(",")[0] in keep]) + "\n")
    for f in keep:
        (tmp_path / "images" / f).write_bytes((src / "images" / f).read_bytes())


def test_bench_vision_json(tmp_path, dice_sets, capsys):
    _two_image_set(tmp_path, dice_sets)
    assert main(["bench", "vision", str(tmp_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out.strip())
    assert set(out) == {"images", "dice", "exact", "die_recall", "extra_dice", "wrong_dice", "rerolls", "ms_p50", "ms_p95"}
    assert out["images"] == 2 and 0.0 <= out["exact"] <= 1.0 and 0.0 <= out["die_recall"] <= 1.0
    assert out["dice"] == 5 + 1  # five_44: five 5s; dice_1: one die


def test_bench_vision_splits_by_vision_split(tmp_path, dice_sets, capsys):
    from vision.split import is_validation

    _two_image_set(tmp_path / "penlington-wood", dice_sets)
    held = sum(is_validation("penlington-wood", f) for f in ("five_44.jpg", "dice_1.jpg"))
    for split, images in (("val", held), ("train", 2 - held), ("all", 2)):
        assert main(["bench", "vision", str(tmp_path / "penlington-wood"), "--json", "--split", split]) == 0
        assert json.loads(capsys.readouterr().out.strip())["images"] == images, split


def test_bench_vision_on_drawn_trays(capsys):
    assert main(["bench", "vision", "--drawn", "--frames", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out.strip())
    assert set(out) == DRAWN
    assert all(r["images"] == 2 for r in out.values())
    assert all(out[k]["dice"] == 6 for k in THREE_DICE)
    assert 2 <= out["mixed 1-8"]["dice"] <= 16
    assert main(["bench", "vision"]) == 2
    assert "--drawn" in capsys.readouterr().err


def test_bench_vision_reads_drawn_trays_through_each_change(capsys, monkeypatch):
    import numpy as np

    from vision import retake

    # a blank picture reads nothing: the change was applied, not ignored
    monkeypatch.setitem(retake.CHANGES, "dark0.6", lambda img: np.zeros_like(img))
    assert main(["bench", "vision", "--drawn", "--frames", "2", "--json", "--change", "none,dark0.6,scale1.5"]) == 0
    out = json.loads(capsys.readouterr().out.strip())
    assert set(out) == {f"{c} {k}" for c in DRAWN for k in ("none", "dark0.6", "scale1.5")}
    assert all(out[f"{c} dark0.6"]["die_recall"] == 0.0 and out[f"{c} dark0.6"]["change"] == "dark0.6"
               for c in ("red/white", "blue/white"))
    # a bigger frame keeps its dice where its labels are (boxes scale with the frame)
    assert out["red/white scale1.5"]["die_recall"] >= out["red/white none"]["die_recall"] - 1 / 6
    assert main(["bench", "vision", "--drawn", "--frames", "1", "--json", "--change", "grey"]) == 0
    out = json.loads(capsys.readouterr().out.strip())
    assert set(out) == DRAWN
    assert all(r["change"] == "grey" for r in out.values())
    assert all(out[k]["dice"] == 3 for k in THREE_DICE)


def test_bench_vision_not_a_set(tmp_path, capsys):
    assert main(["bench", "vision", str(tmp_path)]) == 2
    assert "labels.csv" in capsys.readouterr().err


def test_bench_vision_on_changed_pictures(tmp_path, dice_sets, capsys):
    _two_image_set(tmp_path, dice_sets)
    assert main(["bench", "vision", str(tmp_path), "--json", "--change", "dark0.6"]) == 0
    out = json.loads(capsys.readouterr().out.strip())
    assert out["change"] == "dark0.6" and out["images"] == 2
    assert main(["bench", "vision", str(tmp_path), "--change", "list"]) == 0
    assert "jpeg40" in capsys.readouterr().out.split()
    assert main(["bench", "vision", str(tmp_path), "--change", "fisheye"]) == 2
    err = capsys.readouterr().err
    assert "--change fisheye" in err and "blur1" in err


def test_bench_vision_over_several_changes_gives_their_mean(tmp_path, dice_sets, capsys, monkeypatch):
    import numpy as np

    from vision import retake

    _two_image_set(tmp_path, dice_sets)
    # each name's own change is applied: a blank picture reads nothing
    monkeypatch.setitem(retake.CHANGES, "dark0.6", lambda img: np.zeros_like(img))
    assert main(["bench", "vision", str(tmp_path), "--json", "--change", "none,shift1,dark0.6"]) == 0
    out = json.loads(capsys.readouterr().out.strip())
    assert [r.get("change", "none") for r in out["changes"]] == ["none", "shift1", "dark0.6"]
    assert out["changes"][0]["exact"] == 1.0 and out["changes"][2]["exact"] == 0.0
    for key in ("exact", "die_recall", "extra_dice", "wrong_dice"):
        assert out["mean"][key] == round(sum(r[key] for r in out["changes"]) / 3, 4)
    assert main(["bench", "vision", str(tmp_path), "--change", "none,shift1"]) == 0
    assert "mean of 2: exact" in capsys.readouterr().out
    assert main(["bench", "vision", str(tmp_path), "--change", "none,fisheye"]) == 2
    assert "--change fisheye" in capsys.readouterr().err
