"""What a user sees when the input is wrong: the real `bunco` command, one line, exit 2, no traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from appliance.nightlog import dumps
from appliance.game.rules import HouseRules
from appliance.simulate import simulate_night

BUNCO = [sys.executable, "-m", "appliance.cli"]  # the `bunco` console script runs appliance.cli:main


def bunco(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(BUNCO + list(args), input=stdin, capture_output=True, timeout=120)
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode())


def one_line_error(proc: subprocess.CompletedProcess[str], command: str) -> str:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"bunco {command}: ")
    return lines[0]


@pytest.fixture(scope="module")
def night_log(tmp_path_factory) -> Path:
    log = tmp_path_factory.mktemp("night") / "night.jsonl"
    lines: list[str] = []
    simulate_night(tuple(f"P{i}" for i in range(12)), HouseRules(), 4, emit=lambda x: lines.append(dumps(x)))
    log.write_text("\n".join(lines) + "\n")
    return log


def test_replay_of_a_binary_file(tmp_path):
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(range(256)) * 8)
    line = one_line_error(bunco("replay", str(photo)), "replay")
    assert str(photo) in line and "not a night's log" in line


def test_replay_of_binary_standard_input():
    line = one_line_error(bunco("replay", "-", stdin=b"\x89PNG\r\n\x1a\n\xff\xfe"), "replay")
    assert "stdin" in line and "not a night's log" in line


def test_replay_of_a_missing_file(tmp_path):
    line = one_line_error(bunco("replay", str(tmp_path / "nope.jsonl")), "replay")
    assert "nope.jsonl" in line and "No such file" in line


def test_replay_into_a_closed_pipe_stops_quietly(night_log):
    """`bunco replay LOG | head`: the reader is gone before the standings are printed.

    The pipe's read end is closed before the command starts, so its first write fails
    for certain: no race with a real `head`.
    """
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run(BUNCO + ["replay", str(night_log)], stdout=write_end, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    finally:
        os.close(write_end)
    assert proc.stderr == ""  # no BrokenPipeError traceback, no "Exception ignored" line
    assert proc.returncode == 128 + signal.SIGPIPE  # what a shell reports for `cat LOG | head`


def test_replay_still_prints_everything_to_a_reader(night_log):
    proc = subprocess.run(BUNCO + ["replay", str(night_log)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.count("\nset ") + proc.stdout.startswith("set ") == 24 and "prizes:" in proc.stdout


def test_read_a_missing_image(tmp_path):
    missing = tmp_path / "missing.png"
    proc = bunco("read", str(missing))
    line = one_line_error(proc, "read")
    assert line == f"bunco read: {missing}: no such file"
    assert "WARN" not in proc.stderr  # OpenCV is not asked about a path that is not there


def test_read_a_text_file_named_png(tmp_path):
    text = tmp_path / "notes.png"
    text.write_text("shopping: dice, score pads, bell\n")
    line = one_line_error(bunco("read", str(text)), "read")
    assert line.startswith(f"bunco read: {text}: not an image")


def test_read_a_folder(tmp_path):
    line = one_line_error(bunco("read", str(tmp_path)), "read")
    assert line == f"bunco read: {tmp_path}: is a folder, not an image file"


def test_read_checks_every_file_before_reading_any(tmp_path):
    """A slip in the third name is found before the first image is read: no half output."""
    good = tmp_path / "good.png"
    import cv2
    import numpy as np

    assert cv2.imwrite(str(good), np.full((64, 64, 3), 200, np.uint8))
    line = one_line_error(bunco("read", str(good), str(good), str(tmp_path / "gone.jpg")), "read")
    assert "gone.jpg: no such file" in line
