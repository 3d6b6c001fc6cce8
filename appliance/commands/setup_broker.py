"""`bunco setup-broker`: passwords and an ACL for the head unit's mosquitto, one folder."""

from __future__ import annotations

import argparse
from pathlib import Path

HELP = "write mosquitto's conf snippet, password file, ACL and one password file a unit (idempotent)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--party", required=True, help="party id: lower-case letters, digits, '-'")
    p.add_argument("--tables", type=int, required=True, help="number of tables, the head table included")
    p.add_argument("--out", type=Path, required=True, help="folder to write into (kept passwords are reused)")
    p.add_argument("--port", type=int, default=1883, help="the broker's TCP port (default 1883)")
    p.add_argument("--conf-dir", type=Path, default=None,
                   help="absolute folder the files live in on the unit, for the paths in mosquitto.conf "
                        "(default: --out itself; the installer uses /etc/mosquitto/bunco)")


def run(args: argparse.Namespace) -> int:
    from appliance.net.broker_setup import BrokerSetup, password_file, write_setup

    setup = BrokerSetup(party=args.party, tables=args.tables, out=args.out, port=args.port, conf_dir=args.conf_dir)
    report = write_setup(setup)
    for user in report.users:
        state = "new password" if user in report.new_passwords else "kept"
        print(f"{user}: {password_file(args.out, user)} ({state})")
    for user in report.removed:
        print(f"{user}: removed")
    print(f"changed: {', '.join(report.written) if report.written else 'nothing'}")
    return 0
