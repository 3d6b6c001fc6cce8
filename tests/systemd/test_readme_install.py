"""The README's Pi commands and paths agree with what systemd/install.sh really does (its dry run).

A hostess copies these lines from the README on the night; a path that the installer does not
use (the export's data folder, where the table passwords are made) costs her the scorecards.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
PROSE = re.sub(r"```.*?```", "", README, flags=re.S).replace("\n", " ")  # inline `code` spans, one line


@pytest.fixture
def place() -> Iterator[Path]:
    """A folder anyone can read (the installer runs as nobody when the tests run as root), holding
    a copy of systemd/ and an empty machine root (BUNCO_INSTALL_ROOT)."""
    folder = Path(tempfile.mkdtemp(prefix="bunco-readme-"))
    folder.chmod(0o755)
    shutil.copytree(ROOT / "systemd", folder / "checkout" / "systemd")
    (folder / "root" / "boot" / "firmware").mkdir(parents=True)
    (folder / "root" / "boot" / "firmware" / "cmdline.txt").write_text("console=tty1 rootwait\n")
    for p in folder.rglob("*"):
        p.chmod(0o755 if p.is_dir() else 0o644)
    yield folder
    shutil.rmtree(folder)


def readme_install_commands() -> list[list[str]]:
    """Every `sudo systemd/install.sh ...` line of the README, as words, the comment cut off."""
    found = []
    for line in README.splitlines():
        m = re.match(r"^\s+sudo systemd/install\.sh (.*)$", line)
        if m:
            found.append(shlex.split(m.group(1), comments=True))
    return found


def dry_run(place: Path, args: list[str]) -> str:
    cmd = ["bash", str(place / "checkout" / "systemd" / "install.sh"), *args, "--dry-run"]
    if os.geteuid() == 0:
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
           "BUNCO_INSTALL_ROOT": str(place / "root")}
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env, cwd=place)
    assert done.returncode == 0, f"README's `install.sh {' '.join(args)}`: {done.stderr}"
    return done.stdout.replace(str(place / "root"), "")  # paths as on the Pi


def commands(out: str) -> list[list[str]]:
    return [shlex.split(line[2:]) for line in out.splitlines() if line.startswith("+ ")]


def option(words: list[str], name: str) -> str:
    return words[words.index(name) + 1]


def run_readme_installs(place: Path) -> dict[str, str]:
    """The README's install lines, run dry; a --password-file it names is made in the working folder."""
    outs = {}
    for words in readme_install_commands():
        if "--password-file" in words:
            (place / option(words, "--password-file")).write_text("secret\n")
            (place / option(words, "--password-file")).chmod(0o644)
        outs[option(words, "--role") + option(words, "--table") if "--table" in words else option(words, "--role")] = \
            dry_run(place, words)
    return outs


def test_readme_install_lines_run(place):
    outs = run_readme_installs(place)
    assert set(outs) == {"head", "table2"}


def test_table_passwords_are_copied_from_where_the_head_makes_them(place):
    outs = run_readme_installs(place)
    setup = next(c for c in commands(outs["head"]) if "setup-broker" in c)
    made_in = option(setup, "--out")
    party = option(setup, "--party")
    made = f"{made_in}/{party}-table2.password"
    assert f"copy `{made}` from the head to" in PROSE
    # the table's installer puts the copy where its unit.toml looks for it
    put = next(c for c in commands(outs["table2"]) if c[0] == "install" and c[-1].endswith(".password"))
    wanted = re.search(r'password_file = "([^"]+)"', outs["table2"]).group(1)
    assert put[-1] == wanted and f"`{wanted}`" in README
    # and, without --password-file, the installer's own reminder names the same two paths
    bare = dry_run(place, ["--role", "table", "--table", "2", "--party", party])
    assert f"copy {made} from the head unit to {wanted}" in bare
    # the README says no more that table passwords come from /etc/bunco on the head
    assert not re.search(r"copy `/etc/bunco/[^`]*table", README)


def test_export_reads_where_the_head_service_writes(place):
    outs = run_readme_installs(place)
    head = commands(outs["head"])
    venv = next(c for c in head if c[:3] == ["python3", "-m", "venv"])[-1]
    user = next(c for c in head if c[0] == "useradd")[-1]
    unit_src = next(c for c in head if c[0] == "install" and c[-1].endswith("/bunco-head.service"))[-2]
    unit = (place / "checkout" / Path(unit_src).relative_to(Path(unit_src).parents[1])).read_text()
    exec_start = shlex.split(re.search(r"^ExecStart=(.*)$", unit, re.M).group(1))
    data = option(exec_start, "--data")
    assert f"User={user}" in unit
    exports = re.findall(r"`([^`]*bunco export [^`]*)`", PROSE)
    assert len(exports) >= 2
    for line in exports:
        words = shlex.split(line.split(">")[0])
        assert option(words, "--data") == data, line
        assert words[:4] == ["sudo", "-u", user, f"{venv}/bin/bunco"], line


def test_calibrate_writes_the_config_the_installer_made(place):
    outs = run_readme_installs(place)
    venv = next(c for c in commands(outs["table2"]) if c[:3] == ["python3", "-m", "venv"])[-1]
    config = re.search(r"^\+ write (\S+) ", outs["table2"], re.M).group(1)
    unit = (ROOT / "systemd" / "bunco-table.service").read_text()
    assert f"--config {config}" in unit
    calibrates = re.findall(r"`([^`]*bunco calibrate [^`]*)`", PROSE)
    assert calibrates
    for line in calibrates:
        words = shlex.split(line)
        assert words[:2] == ["sudo", f"{venv}/bin/bunco"] and option(words, "--config") == config, line
