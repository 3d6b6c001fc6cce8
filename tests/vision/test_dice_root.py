"""Where the shared photos are found: beside the checkout, or beside the checkout it was cloned from."""

from __future__ import annotations

from vision.synthetic import find_dice_root


def test_env_then_beside_then_beside_the_origin(tmp_path):
    origin, clone = tmp_path / "work" / "main", tmp_path / "elsewhere" / "c"
    (tmp_path / "work" / "shared" / "dice").mkdir(parents=True)
    origin.mkdir()
    (clone / ".git").mkdir(parents=True)
    (clone / ".git" / "config").write_text(f'[core]\n\tbare = false\n[remote "origin"]\n\turl = {origin}\n')
    assert find_dice_root(clone, env={}) == tmp_path / "work" / "shared" / "dice"
    (tmp_path / "elsewhere" / "shared" / "dice").mkdir(parents=True)
    assert find_dice_root(clone, env={}) == tmp_path / "elsewhere" / "shared" / "dice"
    assert find_dice_root(clone, env={"BUNCO_DICE_DIR": "/x"}).as_posix() == "/x"


def test_no_photos_anywhere_names_the_place_beside_the_checkout(tmp_path):
    (tmp_path / "c" / ".git").mkdir(parents=True)
    (tmp_path / "c" / ".git" / "config").write_text('[remote "origin"]\n\turl = https://example.org/x.git\n')
    assert find_dice_root(tmp_path / "c", env={}) == tmp_path / "shared" / "dice"
