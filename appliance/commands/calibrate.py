"""`bunco calibrate`: find the tray region and the die size, store them in the unit's config."""

from __future__ import annotations

import argparse
import math
import os
import re
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from appliance.errors import ConfigError, UserError

HELP = "find the tray region and die size from the camera (or a replay) and store them in the config"

SECTION = "camera"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--camera", default="picamera", metavar="SPEC",
                        help="picamera (default), a device index, a video file, a URL, replay:FOLDER or synthetic")
    parser.add_argument("--config", required=True, metavar="FILE",
                        help="the unit's TOML config; its [camera] section is written, the rest kept")
    parser.add_argument("--debug", metavar="OUT.png", help="write the frame with tray, dice and values drawn")
    parser.add_argument("--frames", type=int, default=20, metavar="N", help="frames to measure (default 20)")
    parser.add_argument("--skip", type=int, default=0, metavar="N",
                        help="frames to drop first (e.g. a replay's dice still rolling)")
    parser.add_argument("--dry-run", action="store_true", help="print what would be written, write nothing")


def run(args: argparse.Namespace) -> int:
    from vision.calibrate import CalibrationError, calibrate, write_overlay
    from vision.sources import CameraError, open_source

    if args.frames < 1:
        raise UserError(f"--frames must be at least 1, not {args.frames}")
    config = Path(args.config)
    _check_config(config)  # before the camera: a broken file is found in a second, not after warm-up
    frames = []
    locked: dict[str, Any] = {}
    try:
        with open_source(args.camera) as source:
            for _ in range(args.skip + args.frames):
                item = source.read()
                if item is None:
                    break
                frames.append(item[1])
            locked = dict(getattr(source, "locked", {}) or {})
    except CameraError as exc:
        raise UserError(str(exc)) from None
    frames = frames[args.skip:]
    if not frames:
        raise UserError(f"{args.camera} gave no frames to measure (after skipping {args.skip})")
    try:
        cal = calibrate(frames)
        if args.debug:
            write_overlay(args.debug, frames[-1], cal)
    except CalibrationError as exc:
        raise UserError(str(exc)) from None
    values = cal.as_config()
    values.update(_camera_controls(locked))
    if args.dry_run:
        print(render_section(values), end="")
    else:
        update_section(config, SECTION, values)
    x, y, w, h = cal.roi
    tray = f"tray {w}x{h} at ({x}, {y})" if cal.tray_found else "no tray edge found: the whole frame is used"
    size = ("no die seen: put three dice in the tray and run it again" if cal.die_size_px is None
            else f"die {cal.die_size_px:.1f} px")
    print(f"{tray}; {size}" + ("" if args.dry_run else f"; written to [{SECTION}] in {config}")
          + (f"; picture: {args.debug}" if args.debug else ""))
    return 0 if cal.die_size_px is not None else 1


def _camera_controls(locked: dict[str, Any]) -> dict[str, Any]:
    """The exposure the Pi camera settled on, so a unit starts with the same picture every time."""
    out: dict[str, Any] = {}
    if "ExposureTime" in locked:
        out["exposure_time_us"] = int(locked["ExposureTime"])
    if "AnalogueGain" in locked:
        out["analogue_gain"] = round(float(locked["AnalogueGain"]), 3)
    if "ColourGains" in locked:
        out["colour_gains"] = [round(float(g), 3) for g in locked["ColourGains"]]
    if "LensPosition" in locked:
        out["lens_position"] = round(float(locked["LensPosition"]), 3)
    return out


# --------------------------------------------------------------------------- writing one TOML table
# There is no TOML writer among the dependencies, and the unit's config is a hand-edited file:
# so only the lines of our keys in [camera] are replaced (or added), everything else is kept as
# it was, comments included, and the result is parsed back before it replaces the file.

_HEADER = re.compile(r"^\s*\[([^\[\]]+)\]\s*(#.*)?$")
_ANY_HEADER = re.compile(r"^\s*\[")


def _check_config(path: Path) -> dict[str, Any]:
    if not path.exists():
        if not path.parent.exists():
            raise UserError(f"cannot write {path}: folder {path.parent} does not exist")
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path}: not valid TOML ({exc}); fix it before calibrating") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read {path}: {exc}") from None
    if SECTION in data and not isinstance(data[SECTION], dict):
        raise ConfigError(SECTION, "must be a table ([camera])", str(path))
    return data


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"cannot store {v} in TOML")
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"no TOML form for {type(v).__name__}")


def render_section(values: dict[str, Any], name: str = SECTION) -> str:
    return f"[{name}]\n" + "".join(f"{k} = {_toml_value(v)}\n" for k, v in values.items())


def update_section(path: Path, name: str, values: dict[str, Any]) -> None:
    """Set `values` in table [name] of the TOML file at path, keeping everything else."""
    old_data = _check_config(path)
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    start = next((i for i, line in enumerate(lines)
                  if (m := _HEADER.match(line)) and m.group(1).strip() == name), None)
    if start is None:
        if name in old_data:
            raise ConfigError(name, f"is written as dotted keys or an inline table; make it a [{name}] "
                              "section so calibrate can update it", str(path))
        sep = "\n" if lines and lines[-1].strip() else ""
        new_text = "".join(lines) + sep + render_section(values, name)
    else:
        end = next((i for i in range(start + 1, len(lines)) if _ANY_HEADER.match(lines[i])), len(lines))
        body = lines[start + 1:end]
        pending = dict(values)
        for i, line in enumerate(body):
            m = re.match(r"^\s*([A-Za-z0-9_-]+)\s*=", line)
            if m and m.group(1) in pending:
                key = m.group(1)
                body[i] = f"{key} = {_toml_value(pending.pop(key))}\n"
        last = max((i for i, line in enumerate(body) if line.strip()), default=-1)
        body[last + 1:last + 1] = [f"{k} = {_toml_value(v)}\n" for k, v in pending.items()]
        new_text = "".join(lines[:start + 1] + body + lines[end:])
    # parse it back: our keys must hold our values and nothing else may have changed
    try:
        new_data = tomllib.loads(new_text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(name, f"could not be updated safely ({exc}); edit the file by hand", str(path)) from None
    expected = dict(old_data)
    expected[name] = {**old_data.get(name, {}), **{k: list(v) if isinstance(v, tuple) else v
                                                   for k, v in values.items()}}
    if new_data != expected:
        raise ConfigError(name, "could not be updated safely (a key spans several lines?); "
                          "edit the file by hand", str(path))
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", dir=path.parent or Path("."))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(new_text)
        if path.exists():  # keep who may read it: an installed unit's config is root:bunco 0640
            st = path.stat()
            os.chmod(tmp, st.st_mode & 0o777)
            if (st.st_uid, st.st_gid) != (os.getuid(), os.getgid()):
                os.chown(tmp, st.st_uid, st.st_gid)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
