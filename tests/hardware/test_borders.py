"""hardware/ knows nothing of the appliance: no import of `appliance` anywhere under it."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"


def appliance_imports(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] == "appliance"]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] == "appliance":
                found.append(node.module)
        elif isinstance(node, ast.Call) and any(
                isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.split(".")[0] == "appliance"
                for a in node.args):
            found.append(f"dynamic: {ast.unparse(node)}")  # importlib.import_module("appliance...")
    return found


def test_the_scanner_catches_each_form() -> None:
    assert appliance_imports("import appliance.errors") == ["appliance.errors"]
    assert appliance_imports("from appliance import cli") == ["appliance"]
    assert appliance_imports("import importlib\nimportlib.import_module('appliance.game')")
    assert appliance_imports("import hardware.bell\nfrom . import config") == []


def test_no_module_under_hardware_imports_appliance() -> None:
    sources = sorted(HARDWARE.rglob("*.py"))
    assert len(sources) >= 8
    offenders = {str(p.relative_to(HARDWARE)): appliance_imports(p.read_text()) for p in sources}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_importing_every_hardware_module_loads_no_appliance() -> None:
    modules = [f"hardware.{p.stem}" for p in sorted(HARDWARE.glob("*.py")) if p.stem != "__init__"]
    code = ("import sys\n" + "".join(f"import {m}\n" for m in modules)
            + "bad = sorted(m for m in sys.modules if m.split('.')[0] == 'appliance')\n"
            + "print(bad)\nsys.exit(1 if bad else 0)\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=HARDWARE.parent,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
