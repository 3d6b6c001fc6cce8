"""The head unit's mosquitto setup: one password a unit and an ACL, written into one folder.

What `bunco setup-broker` writes into its folder (installed on a Pi as /etc/mosquitto/bunco/):

- ``mosquitto.conf``   a snippet for /etc/mosquitto/conf.d/: the listener, no anonymous clients,
                       and the absolute paths of the two files below
- ``passwd``           mosquitto's password file (hashed by the real ``mosquitto_passwd``)
- ``acl``              the head writes ``bunco/P/head/#`` and reads ``bunco/P/#``;
                       table n writes only ``bunco/P/table/n/#`` and reads ``bunco/P/head/#``
- ``<user>.password``  one a unit, mode 0600: the clear password its config points at

Re-running on the same folder keeps every password that is already there, so a unit that was
set up once keeps working; tables beyond ``--tables`` lose their file and their ACL lines.
Files whose content is already right are not rewritten (an installer may run this every time).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import secrets
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from appliance.errors import UserError
from appliance.net import topics

CONF_NAME = "mosquitto.conf"
PASSWD_NAME = "passwd"
ACL_NAME = "acl"
PASSWORD_SUFFIX = ".password"
DEFAULT_PORT = 1883
MAX_TABLES = 99
# A unit's password file, as this module names them (and may remove them when tables go away).
_UNIT_FILE = re.compile(r"^[a-z0-9][a-z0-9-]*-(head|table\d+)\.password$")
PASSWD_TOOL = "mosquitto_passwd"
INSTALL_HINT = "install it with `sudo apt-get install mosquitto` (mosquitto_passwd comes with it)"


@dataclass(frozen=True)
class BrokerSetup:
    """What to write: one party, tables 1..tables (table 1 is the head table)."""

    party: str
    tables: int
    out: Path
    port: int = DEFAULT_PORT
    conf_dir: Path | None = None  # where the files live on the unit; default: out, absolute

    def validated(self) -> BrokerSetup:
        try:
            topics.check_party(self.party)
        except ValueError as exc:
            raise UserError(f"--party: {exc}") from None
        if isinstance(self.tables, bool) or not isinstance(self.tables, int) or not 1 <= self.tables <= MAX_TABLES:
            raise UserError(f"--tables: must be a number of tables from 1 to {MAX_TABLES}, not {self.tables!r}")
        if isinstance(self.port, bool) or not isinstance(self.port, int) or not 1 <= self.port <= 65535:
            raise UserError(f"--port: must be a TCP port from 1 to 65535, not {self.port!r}")
        if self.out.exists() and not self.out.is_dir():
            raise UserError(f"--out: {self.out} exists and is not a folder")
        conf_dir = self.conf_dir if self.conf_dir is not None else self.out.absolute()
        if not conf_dir.is_absolute():
            raise UserError(f"--conf-dir: must be an absolute path (mosquitto reads it as is), not {conf_dir}")
        if any(c.isspace() for c in str(conf_dir)):
            raise UserError(f"--conf-dir: mosquitto.conf paths cannot hold spaces: {conf_dir!r}")
        return BrokerSetup(self.party, self.tables, self.out, self.port, conf_dir)


@dataclass
class SetupReport:
    """What a run did, for the command to print and the tests to check."""

    users: list[str]
    new_passwords: list[str] = field(default_factory=list)  # users that got a fresh password
    removed: list[str] = field(default_factory=list)  # users whose password file went away
    written: list[str] = field(default_factory=list)  # file names whose content changed


def unit_users(party: str, tables: int) -> list[str]:
    """The head, then tables 1..N (the head unit may use table 1's own credential for its table)."""
    return [topics.head_user(party)] + [topics.table_user(party, n) for n in range(1, tables + 1)]


def password_file(folder: Path, user: str) -> Path:
    return folder / f"{user}{PASSWORD_SUFFIX}"


def conf_text(port: int, conf_dir: Path) -> str:
    return (
        "# The Bunco party broker, written by `bunco setup-broker`.\n"
        "# Install as /etc/mosquitto/conf.d/bunco.conf; the files it names stay where they are.\n"
        f"listener {port}\n"
        "allow_anonymous false\n"
        "# small messages go out at once: the bell must reach every table within a tenth of a second\n"
        "set_tcp_nodelay true\n"
        f"password_file {conf_dir / PASSWD_NAME}\n"
        f"acl_file {conf_dir / ACL_NAME}\n"
    )


def acl_text(party: str, tables: int) -> str:
    """No top-level ``topic`` lines: a user not named here (and anonymous) may do nothing."""
    lines = [
        f"# The Bunco party {party!r}, written by `bunco setup-broker`: each unit may write only its own topics.",
        "",
        f"user {topics.head_user(party)}",
        f"topic write {topics.head_prefix(party)}",
        f"topic read {topics.ROOT}/{party}/#",
    ]
    for n in range(1, tables + 1):
        lines += [
            "",
            f"user {topics.table_user(party, n)}",
            f"topic write {topics.table_prefix(party, n)}",
            f"topic read {topics.head_prefix(party)}",
        ]
    return "\n".join(lines) + "\n"


def hash_matches(line_hash: str, password: str) -> bool:
    """Whether a mosquitto_passwd hash ($7$ PBKDF2-SHA512 or $6$ SHA512) is of this password.

    Only to decide that an existing passwd line is still right, so re-runs leave it byte for byte;
    new hashes always come from mosquitto_passwd itself. An unknown format counts as "not right".
    """
    parts = line_hash.split("$")
    try:
        if len(parts) == 5 and parts[1] == "7":
            iterations, salt, digest = int(parts[2]), base64.b64decode(parts[3]), base64.b64decode(parts[4])
            got = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations)
        elif len(parts) == 4 and parts[1] == "6":
            salt, digest = base64.b64decode(parts[2]), base64.b64decode(parts[3])
            got = hashlib.sha512(password.encode() + salt).digest()
        else:
            return False
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, digest)


def find_passwd_tool() -> str:
    tool = shutil.which(PASSWD_TOOL)
    if tool is None:
        raise UserError(f"{PASSWD_TOOL} not found: {INSTALL_HINT}")
    return tool


def hash_passwords(passwords: dict[str, str], tool: str | None = None) -> dict[str, str]:
    """user -> mosquitto_passwd hash, through ``mosquitto_passwd -U`` (no password on a command line)."""
    if not passwords:
        return {}
    tool = tool or find_passwd_tool()
    fd, name = tempfile.mkstemp(prefix="bunco-passwd-")  # mkstemp: mode 0600
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.writelines(f"{user}:{pw}\n" for user, pw in passwords.items())
        try:
            done = subprocess.run([tool, "-U", name], capture_output=True, text=True, timeout=60)
        except FileNotFoundError:
            raise UserError(f"{tool} not found: {INSTALL_HINT}") from None
        if done.returncode != 0:
            raise UserError(f"{tool} -U failed ({done.returncode}): {(done.stderr or done.stdout).strip()}")
        hashed = _parse_passwd(Path(name).read_text(encoding="utf-8"))
    finally:
        os.unlink(name)
    if set(hashed) != set(passwords):
        raise UserError(f"{tool} -U returned users {sorted(hashed)}, expected {sorted(passwords)}")
    return hashed


def _parse_passwd(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in text.splitlines():
        if line.strip() and not line.startswith("#") and ":" in line:
            user, _, hashed = line.partition(":")
            out[user] = hashed.strip()
    return out


def _read_password(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read the password file {path}: {exc}") from None
    password = text.strip("\n")
    if not password or "\n" in password or password != password.strip():
        raise UserError(f"{path}: must hold one password on one line (delete the file to make a new one)")
    return password


def _write_if_changed(path: Path, text: str, mode: int) -> bool:
    """Atomic write, only when the content differs; the mode is set either way."""
    if path.exists() and path.read_text(encoding="utf-8") == text:
        if (path.stat().st_mode & 0o777) != mode:
            path.chmod(mode)
        return False
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return True


def write_setup(setup: BrokerSetup, passwd_tool: str | None = None) -> SetupReport:
    setup = setup.validated()
    assert setup.conf_dir is not None
    out = setup.out
    try:
        out.mkdir(parents=True, exist_ok=True, mode=0o750)
    except OSError as exc:
        raise UserError(f"--out: cannot create {out}: {exc}") from None
    users = unit_users(setup.party, setup.tables)
    report = SetupReport(users=users)

    passwords: dict[str, str] = {}
    for user in users:
        path = password_file(out, user)
        if path.exists():
            passwords[user] = _read_password(path)
        else:
            passwords[user] = secrets.token_urlsafe(24)
            report.new_passwords.append(user)

    # Keep each passwd line that already hashes the right password; hash only the rest.
    old = _parse_passwd((out / PASSWD_NAME).read_text(encoding="utf-8")) if (out / PASSWD_NAME).exists() else {}
    hashes = {u: old[u] for u in users if u in old and hash_matches(old[u], passwords[u])}
    hashes.update(hash_passwords({u: passwords[u] for u in users if u not in hashes}, passwd_tool))
    passwd = "".join(f"{u}:{hashes[u]}\n" for u in users)

    # Passwords first: a passwd naming a user whose password file was never written would lock it out.
    for user in users:
        if _write_if_changed(password_file(out, user), passwords[user] + "\n", 0o600):
            report.written.append(password_file(out, user).name)
    for name, text, mode in (
        (PASSWD_NAME, passwd, 0o640),
        (ACL_NAME, acl_text(setup.party, setup.tables), 0o640),
        (CONF_NAME, conf_text(setup.port, setup.conf_dir), 0o644),
    ):
        if _write_if_changed(out / name, text, mode):
            report.written.append(name)
    wanted = {password_file(out, u).name for u in users}
    for path in sorted(out.iterdir()):
        if _UNIT_FILE.match(path.name) and path.name not in wanted:
            path.unlink()
            report.removed.append(path.name[: -len(PASSWORD_SUFFIX)])
    return report
