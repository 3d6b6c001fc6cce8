"""The Pi's systemd units and installer: systemd-analyze verify, shellcheck, and the installer's dry run.

Each check needs its tool (systemd-analyze, shellcheck, bash) and is skipped, saying so, without it.
"""

from __future__ import annotations

import atexit
import functools
import os
import re
import shutil
import subprocess
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from appliance.unit_config import config_from_mapping

REPO = Path(__file__).resolve().parents[2]
SYSTEMD = REPO / "systemd"
INSTALL = SYSTEMD / "install.sh"
UNITS = ("bunco-head.service", "bunco-table.service")
HEAD_PI_DROP_IN = "bunco-table.service.d/head-pi.conf"
BUNCO_BIN = "/opt/bunco/venv/bin/bunco"
HOST_MOSQUITTO_UNITS = (Path("/lib/systemd/system/mosquitto.service"), Path("/usr/lib/systemd/system/mosquitto.service"))


def tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed on this machine")
    return found


def parse_unit(path: Path) -> dict[str, dict[str, list[str]]]:
    """Sections -> key -> every value (units repeat keys, which configparser refuses)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def words(unit: dict[str, dict[str, list[str]]], section: str, key: str) -> list[str]:
    return " ".join(unit.get(section, {}).get(key, [])).split()


@pytest.fixture
def verify_dir(tmp_path: Path) -> Path:
    """The units copied with ExecStart pointed at a real executable, so verify checks everything else.

    On the Pi /opt/bunco/venv/bin/bunco exists; here it does not, and verify would stop at that.
    The user `bunco` and its groups need not exist: verify resolves them only at run time.
    """
    fake = tmp_path / "bin" / "bunco"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    for name in UNITS:
        text = (SYSTEMD / name).read_text()
        assert text.count(BUNCO_BIN) == 1
        (tmp_path / name).write_text(text.replace(BUNCO_BIN, str(fake)))
    return tmp_path


def verify(*paths: Path) -> list[str]:
    """systemd-analyze verify's complaints about our files.

    verify exits 0 on warnings (an unknown key, a bad value), so the test reads its output. The one
    narrow allowance: lines that name a unit file of the host itself (under /lib, /usr/lib or /etc
    systemd dirs), which verify loads because ours refer to them (getty@, mosquitto, plymouth) and
    whose quirks on a CI machine are not ours to fix. Every other line counts.

    --man=no: verify would otherwise run man(1) for each Documentation=man:... of the units it loads
    (mosquitto's names mosquitto.conf(5)), which fails wherever man-db or the pages are not installed
    (minimal Debian images, containers) and says nothing about whether a unit runs. Our units have no
    Documentation= lines. The commands a unit runs are still checked (ExecReload=/bin/kill needs procps,
    which `make system` installs).
    """
    done = subprocess.run([tool("systemd-analyze"), "verify", "--man=no", *map(str, paths)],
                          capture_output=True, text=True, timeout=60)
    host = re.compile(r"^(/usr)?/lib/systemd/|^/etc/systemd/")
    complaints = [line for line in (done.stdout + done.stderr).splitlines() if line.strip() and not host.match(line)]
    if done.returncode != 0:
        complaints.append(f"exit status {done.returncode}")
    return complaints


def test_units_pass_systemd_analyze_verify(verify_dir):
    assert verify(*(verify_dir / name for name in UNITS)) == []


def test_head_pi_table_drop_in_passes_verify(verify_dir):
    """Table 1 on the head Pi: bunco-table.service with head-pi.conf beside it (verify reads <unit>.d/)."""
    drop_in = (SYSTEMD / HEAD_PI_DROP_IN).read_text()
    assert drop_in.count(BUNCO_BIN) == 1
    target = verify_dir / HEAD_PI_DROP_IN
    target.parent.mkdir()
    target.write_text(drop_in.replace(BUNCO_BIN, str(verify_dir / "bin" / "bunco")))
    assert verify(verify_dir / "bunco-table.service") == []
    conf = parse_unit(SYSTEMD / HEAD_PI_DROP_IN)["Service"]
    # the second ExecStart replaces the unit's: its own data and config, no screen (the head has tty1)
    assert conf["ExecStart"] == ["", f"{BUNCO_BIN} table --headless --data /var/lib/bunco/table1 "
                                     "--config /etc/bunco/table1.toml"]
    assert conf["TTYPath"] == [""] and conf["StandardInput"] == ["null"]
    target.write_text(target.read_text() + "Restartt=always\n")
    assert any("Restartt" in line for line in verify(verify_dir / "bunco-table.service"))


def test_verify_does_catch_a_broken_unit(verify_dir):
    """The check above can fail: a misspelt key and a bad value are reported."""
    unit = verify_dir / "bunco-table.service"
    unit.write_text(unit.read_text().replace("WatchdogSec=30", "WatchdogSec=thirty\nRestartt=always"))
    complaints = verify(unit)
    assert any("thirty" in line for line in complaints)
    assert any("Restartt" in line for line in complaints)


def test_mosquitto_drop_in_passes_verify(tmp_path):
    """The drop-in beside a copy of mosquitto's own unit (verify reads <unit>.d/ next to the file)."""
    host = next((p for p in HOST_MOSQUITTO_UNITS if p.exists()), None)
    if host is None:
        pytest.skip("mosquitto.service is not installed (apt-get install mosquitto)")
    text = host.read_text()
    exe = re.search(r"^ExecStart=(\S+)", text, re.M)
    if exe is None or not os.access(exe.group(1), os.X_OK):
        pytest.skip(f"{host} has no runnable ExecStart here")
    (tmp_path / "mosquitto.service").write_text(text)
    (tmp_path / "mosquitto.service.d").mkdir()
    shutil.copy(SYSTEMD / "mosquitto.service.d" / "bunco.conf", tmp_path / "mosquitto.service.d" / "bunco.conf")
    assert verify(tmp_path / "mosquitto.service") == []
    # and it is really read: a typo in it is reported
    (tmp_path / "mosquitto.service.d" / "typo.conf").write_text("[Service]\nRestartt=always\n")
    assert any("Restartt" in line for line in verify(tmp_path / "mosquitto.service"))


@pytest.mark.parametrize("name, command", [
    ("bunco-head.service", "head"),
    ("bunco-table.service", "table"),
])
def test_unit_settings(name, command):
    unit = parse_unit(SYSTEMD / name)
    svc = unit["Service"]
    extra = " --no-gpio --web-port 8080 --pin-file /etc/bunco/hostess.pin" if command == "head" else ""
    assert svc["ExecStart"] == [f"{BUNCO_BIN} {command} --data /var/lib/bunco --config /etc/bunco/unit.toml{extra}"]
    assert svc["Type"] == ["notify"] and svc["NotifyAccess"] == ["main"]
    assert 10 <= int(svc["WatchdogSec"][0]) <= 120
    assert svc["Restart"] == ["on-failure"]
    assert svc["User"] == ["bunco"] and svc["StateDirectory"] == ["bunco"]
    assert set(words(unit, "Service", "SupplementaryGroups")) >= {"gpio", "video", "render", "input"}
    assert "SDL_VIDEODRIVER=kmsdrm" in svc["Environment"]
    assert svc["TTYPath"] == ["/dev/tty1"] and svc["StandardInput"][0].startswith("tty")
    assert "getty@tty1.service" in words(unit, "Unit", "Conflicts")
    assert "network-online.target" in words(unit, "Unit", "After")
    assert "network-online.target" in words(unit, "Unit", "Wants")
    assert unit["Install"]["WantedBy"] == ["multi-user.target"]
    # settings that would cut the unit off from /dev/gpiochip*, the camera or the screen
    for key in ("PrivateDevices", "DevicePolicy", "DeviceAllow", "ProtectClock", "PrivateUsers", "DynamicUser"):
        assert key not in svc, f"{key} would break GPIO/camera/DRM access"
    assert svc["NoNewPrivileges"] == ["yes"] and svc["ProtectSystem"] == ["strict"]
    if command == "head":
        assert "mosquitto.service" in words(unit, "Unit", "After")
        assert "mosquitto.service" in words(unit, "Unit", "Wants")


def test_units_exposure_is_ok(verify_dir):
    """systemd's own hardening score: "OK" is below 5 on its 0 (locked down) .. 10 (wide open) scale."""
    analyze = tool("systemd-analyze")
    for name in UNITS:
        done = subprocess.run([analyze, "security", "--offline=yes", str(verify_dir / name)],
                              capture_output=True, text=True, timeout=60)
        m = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout)
        if m is None:
            pytest.skip(f"this systemd-analyze has no offline security check: {done.stderr.strip()[:200]}")
        assert float(m.group(1)) < 4.0, done.stdout


def test_install_sh_passes_shellcheck():
    done = subprocess.run([tool("shellcheck"), str(INSTALL)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


# --- the installer's dry run -----------------------------------------------------------------------

@pytest.fixture
def fresh_root() -> Iterator[Path]:
    """An empty machine for the installer's file paths (BUNCO_INSTALL_ROOT), readable by nobody too."""
    root = Path(tempfile.mkdtemp(prefix="bunco-root-"))
    root.chmod(0o755)
    (root / "boot" / "firmware").mkdir(parents=True)
    (root / "boot" / "firmware" / "cmdline.txt").write_text("console=tty1 root=PARTUUID=abc rootwait\n")
    yield root
    shutil.rmtree(root)


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@functools.cache
def installer_checkout() -> Path:
    """A copy of systemd/ in a folder nobody can read: the checkout itself may sit in a private
    folder (a `mktemp -d` clone is 0700), where nobody could not even open install.sh."""
    folder = Path(tempfile.mkdtemp(prefix="bunco-checkout-"))
    folder.chmod(0o755)
    shutil.copytree(SYSTEMD, folder / "systemd")
    atexit.register(shutil.rmtree, folder, True)
    return folder


def install_sh(*args: str, root: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run install.sh as an unprivileged user (nobody, when the tests run as root): no root needed."""
    cmd = [tool("bash"), str(installer_checkout() / "systemd" / "install.sh"), *args]
    if os.geteuid() == 0:
        cmd = [tool("setpriv"), "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
    if root is not None:
        env["BUNCO_INSTALL_ROOT"] = str(root)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env)


def missing_packages(role: str) -> list[str]:
    """What the installer should ask apt for on this machine (it skips what dpkg says is there)."""
    wanted = ["python3-venv", "python3-picamera2", "python3-lgpio", "liblgpio1",
              "libgbm1", "libegl1", "libgles2", "libgl1-mesa-dri"] + (["mosquitto"] if role == "head" else [])
    dpkg = shutil.which("dpkg-query")

    def installed(pkg: str) -> bool:
        if dpkg is None:
            return False
        done = subprocess.run([dpkg, "-W", "-f=${Status}", pkg], capture_output=True, text=True)
        return done.stdout == "install ok installed"

    def candidate(pkg: str) -> bool:  # Raspberry Pi OS's own packages are left out where apt has none
        if pkg not in ("python3-picamera2", "python3-lgpio", "liblgpio1"):
            return True
        done = subprocess.run(["apt-cache", "policy", pkg], capture_output=True, text=True)
        line = next((x for x in done.stdout.splitlines() if "Candidate:" in x), "")
        return bool(line) and "(none)" not in line

    return [p for p in wanted if not installed(p) and candidate(p)]


def assert_apt_step(role: str, out: str) -> None:
    missing = missing_packages(role)
    cmds = commands(out)
    if missing:
        assert "apt-get update" in cmds
        assert ("env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends " + " ".join(missing)) in cmds
    else:
        assert "system packages: all there" in out and not any("apt-get" in c for c in cmds)


def commands(out: str) -> list[str]:
    return [line[2:] for line in out.splitlines() if line.startswith("+ ")]


def test_dry_run_head(fresh_root):
    before = snapshot(fresh_root)
    done = install_sh("--role", "head", "--party", "spring", "--tables", "4", "--dry-run", root=fresh_root)
    assert done.returncode == 0, done.stderr
    cmds = commands(done.stdout)
    r = str(fresh_root)
    assert_apt_step("head", done.stdout)
    assert f"python3 -m venv --system-site-packages {r}/opt/bunco/venv" in cmds
    assert any(c.startswith(f"{r}/opt/bunco/venv/bin/pip install") and f"'{installer_checkout()}[pi]'" in c for c in cmds)
    assert (f"{r}/opt/bunco/venv/bin/bunco setup-broker --party spring --tables 4 "
            f"--out {r}/etc/mosquitto/bunco --conf-dir /etc/mosquitto/bunco") in cmds
    assert any(c.endswith(f"{r}/etc/mosquitto/bunco/mosquitto.conf {r}/etc/mosquitto/conf.d/bunco.conf") for c in cmds)
    assert any(c.endswith(f"{installer_checkout() / 'systemd'}/bunco-head.service {r}/etc/systemd/system/bunco-head.service") for c in cmds)
    assert f"sed -i '1s/$/ consoleblank=0/' {r}/boot/firmware/cmdline.txt" in cmds
    assert "systemctl daemon-reload" in cmds
    assert "systemctl enable mosquitto.service" in cmds
    # the head Pi plays table 1: both units, table 1's with the head-Pi drop-in, both enabled
    assert cmds[-1] == "systemctl enable bunco-head.service bunco-table.service"
    checkout = installer_checkout() / "systemd"
    for name in (*UNITS, HEAD_PI_DROP_IN):
        assert any(c.endswith(f"{checkout}/{name} {r}/etc/systemd/system/{name}") for c in cmds), name
    assert not any("disable" in c and "bunco-table" in c for c in cmds)
    assert 'username = "spring-head"' in done.stdout
    assert 'password_file = "/etc/bunco/spring-head.password"' in done.stdout
    assert f"+ write {r}/etc/bunco/hostess.pin (mode 0600, bunco:bunco): a new 6-digit PIN" in done.stdout
    configs = written(done.stdout)
    unit = config_from_mapping(tomllib.loads(configs[f"{r}/etc/bunco/unit.toml"]), "unit.toml")
    assert unit.table == 1 and unit.network.host_port() == ("localhost", 1883)
    # the players hint, once uncommented, is a top-level key (not swallowed by [network])
    toml = configs[f"{r}/etc/bunco/unit.toml"]
    assert len(config_from_mapping(tomllib.loads(toml.replace("# players", "players")), "unit.toml").players) == 4
    table1 = config_from_mapping(tomllib.loads(configs[f"{r}/etc/bunco/table1.toml"]), "table1.toml")
    assert table1.table == 1 and table1.network.host_port() == ("localhost", 1883)
    assert table1.network.username == "spring-table1"
    assert table1.network.password_file == Path("/etc/bunco/spring-table1.password")
    # both units' credentials are copied for them to read
    for u in ("spring-head", "spring-table1"):
        assert any(c.endswith(f"{r}/etc/mosquitto/bunco/{u}.password {r}/etc/bunco/{u}.password") for c in cmds)
    # the units read what the installer writes
    head = parse_unit(SYSTEMD / "bunco-head.service")["Service"]["ExecStart"][0]
    assert "--pin-file /etc/bunco/hostess.pin" in head and "--no-gpio" in head
    assert "--config /etc/bunco/table1.toml" in (SYSTEMD / HEAD_PI_DROP_IN).read_text()
    assert snapshot(fresh_root) == before  # ran nothing


def written(out: str) -> dict[str, str]:
    """The files a dry run would write: path -> text (from its '+ write PATH ...:' blocks)."""
    files: dict[str, str] = {}
    current = None
    for line in out.splitlines():
        m = re.match(r"^\+ write (\S+) \(", line)
        if m:
            current = m.group(1)
            files[current] = ""
        elif line.startswith("|   ") and current is not None:
            files[current] += line[4:] + "\n"
        else:
            current = None
    return files


def test_dry_run_table(fresh_root):
    before = snapshot(fresh_root)
    done = install_sh("--role", "table", "--table", "2", "--party", "spring", "--dry-run", root=fresh_root)
    assert done.returncode == 0, done.stderr
    cmds = commands(done.stdout)
    assert_apt_step("table", done.stdout)
    assert not any("mosquitto" in c for c in cmds)
    assert not any("setup-broker" in c for c in cmds)
    assert any("venv --system-site-packages" in c for c in cmds)
    assert cmds[-1] == "systemctl enable bunco-table.service"
    assert "head-pi.conf" not in done.stdout and "hostess.pin" not in done.stdout
    # the unit's config, as the network code reads it
    toml = "\n".join(line[4:] for line in done.stdout.splitlines() if line.startswith("|   "))
    config = tomllib.loads(toml)
    assert config == {"table": 2, "network": {"party": "spring", "broker": "auto", "username": "spring-table2",
                                              "password_file": "/etc/bunco/spring-table2.password"}}
    # and the unit's own config reader takes it as it is
    net = config_from_mapping(config, "unit.toml").network
    assert (net.party, net.broker, net.username) == ("spring", "auto", "spring-table2")
    assert net.password_file == Path("/etc/bunco/spring-table2.password")
    assert "STILL TO DO: copy /etc/mosquitto/bunco/spring-table2.password" in done.stdout
    assert snapshot(fresh_root) == before


def test_dry_run_leaves_what_is_already_right(fresh_root):
    """Idempotence, seen in the plan: an installed unit, config and cmdline are not touched again."""
    unit_dir = fresh_root / "etc" / "systemd" / "system"
    unit_dir.mkdir(parents=True)
    shutil.copy(SYSTEMD / "bunco-table.service", unit_dir / "bunco-table.service")
    (fresh_root / "etc" / "bunco").mkdir()
    (fresh_root / "etc" / "bunco" / "unit.toml").write_text("table = 3\n")
    (fresh_root / "boot" / "firmware" / "cmdline.txt").write_text("console=tty1 consoleblank=0 rootwait\n")
    done = install_sh("--role", "table", "--table", "3", "--broker", "head.local:1883", "--dry-run", root=fresh_root)
    assert done.returncode == 0, done.stderr
    cmds = commands(done.stdout)
    assert not any("bunco-table.service /" in c for c in cmds)  # no copy of an identical unit
    assert "systemctl daemon-reload" not in cmds
    assert "write " not in done.stdout and "consoleblank" not in " ".join(cmds)
    assert "console blanking: already off" in done.stdout


@pytest.mark.parametrize("args, message", [
    ([], "--role head|table is needed"),
    (["--role", "table"], "a table number is needed"),
    (["--role", "table", "--table", "1"], "use --role head"),
    (["--role", "head", "--party", "Bad Party"], "--party"),
    (["--role", "table", "--table", "2", "--broker", "a b"], "--broker"),
    (["--role", "head", "--frobnicate"], "unknown argument"),
])
def test_bad_arguments(args, message):
    done = install_sh(*args, "--dry-run")
    assert done.returncode == 2 and message in done.stderr


def test_without_dry_run_it_wants_root():
    done = install_sh("--role", "head")
    assert done.returncode == 2 and "run as root" in done.stderr
