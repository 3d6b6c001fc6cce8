"""What a fresh machine's first `make demo` / `make test` relies on, checked without building one.

The full check (a minbase Debian chroot per release, the README's two commands) is tools/fresh-check,
`make fresh-check`: far too slow for every test run, so only its script's lint is here.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def test_fresh_check_passes_shellcheck():
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        pytest.skip("shellcheck is not installed on this machine (make system installs it)")
    done = subprocess.run([shellcheck, str(REPO / "tools" / "fresh-check")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_venv_package_is_the_running_pythons():
    """Debian ships ensurepip apart, per Python version: python3.11-venv on bookworm, python3.13-venv on trixie."""
    make = shutil.which("make")
    if make is None:
        pytest.skip("make is not installed on this machine")
    done = subprocess.run([make, "-s", "-n", "-C", str(REPO), "venv-package", f"PYTHON={sys.executable}"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    wanted = f"python{sys.version_info.major}.{sys.version_info.minor}-venv"
    assert f"install -y -qq {wanted}" in done.stdout, done.stdout


def test_fresh_check_is_not_part_of_make_test():
    make = shutil.which("make")
    if make is None:
        pytest.skip("make is not installed on this machine")
    done = subprocess.run([make, "-n", "-C", str(REPO), "test"], capture_output=True, text=True, timeout=60)
    assert "fresh-check" not in done.stdout
