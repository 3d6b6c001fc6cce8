"""Bad player lists from every door: one line naming the player, exit code 2, nothing logged.

Run as a user runs them (the `bunco` entry point in a subprocess), so what is checked is
what reaches the terminal: no traceback, one line.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BUNCO = [sys.executable, "-m", "appliance.cli"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*BUNCO, *args], capture_output=True, text=True, timeout=120,
                          env={"SDL_VIDEODRIVER": "dummy", "PATH": "/usr/bin:/bin"})


def one_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    return lines[0]


@pytest.mark.parametrize("players, says", [
    ("Ann,Bea,Ann,Dot", "--players: 'Ann' is listed twice"),
    ("Ann,Bea,ann,Dot", "--players: 'ann' is listed twice (as 'Ann' and 'ann')"),
    ("Ann,,Cy,Dot", "--players: player 2 has an empty name"),
    ("Ann", "--players: 1 player: Bunco needs at least 2"),
    ("Ann,Bea,Cy,Dot,Eve", "--players: 5 players: at most 4 here"),
])
def test_standalone_table_players_flag(tmp_path: Path, players: str, says: str) -> None:
    line = one_line(run("table", "--standalone", "--players", players, "--data", str(tmp_path / "t"),
                        "--camera", "synthetic:1", "--headless", "--fake-gpio"))
    assert line == f"bunco table: {says}"
    assert not (tmp_path / "t").exists()


@pytest.mark.parametrize("players, says", [
    ("Ann,Bea,ANN,Dot", "--players: 'ANN' is listed twice (as 'Ann' and 'ANN')"),
    (" ,Bea,Cy,Dot", "--players: player 1 has an empty name"),
    ("Ann,Bea,Cy,Dorothea-Wilhelmina-Augusta-Smith", "--players: 'Dorothea-Wilhelmina-Augusta-Smith' is longer than 24 characters (33)"),
])
def test_head_players_flag(tmp_path: Path, players: str, says: str) -> None:
    line = one_line(run("head", "--players", players, "--data", str(tmp_path / "h"), "--headless", "--fake-gpio"))
    assert line.startswith(f"bunco head: {says}")
    assert not (tmp_path / "h").exists()


def test_head_roster_csv_and_toml(tmp_path: Path) -> None:
    csv = tmp_path / "players.csv"
    csv.write_text("name\nAnn\nBea\n\nCy\n")
    line = one_line(run("head", "--roster", str(csv), "--data", str(tmp_path / "h"), "--headless", "--fake-gpio"))
    assert line == f"bunco head: {csv}: player 3 has an empty name"
    toml = tmp_path / "players.toml"
    toml.write_text('players = ["Ann", "Bea", "bea"]\n')
    line = one_line(run("head", "--roster", str(toml), "--data", str(tmp_path / "h"), "--headless", "--fake-gpio"))
    assert line == f"bunco head: players in {toml}: 'bea' is listed twice (as 'Bea' and 'bea')"
    one = tmp_path / "one.toml"
    one.write_text('players = ["Ann"]\n')
    line = one_line(run("head", "--roster", str(one), "--data", str(tmp_path / "h"), "--headless", "--fake-gpio"))
    assert line == f"bunco head: players in {one}: 1 player: Bunco needs at least 2"
    assert not (tmp_path / "h").exists()


def test_config_players(tmp_path: Path) -> None:
    conf = tmp_path / "unit.toml"
    conf.write_text('players = ["Ann", "Bea", "Ann"]\n')
    line = one_line(run("table", "--standalone", "--config", str(conf), "--data", str(tmp_path / "t"),
                        "--camera", "synthetic:1", "--headless", "--fake-gpio"))
    assert line == f"bunco table: players in {conf}: 'Ann' is listed twice"
    assert not (tmp_path / "t").exists()
