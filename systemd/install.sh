#!/usr/bin/env bash
# Install a Bunco unit on a Raspberry Pi (Raspberry Pi OS bookworm), from the checkout this
# script sits in. Run as root; safe to run again (what is already right is left alone).
#
#   sudo systemd/install.sh --role head [--party P] [--tables N]
#   sudo systemd/install.sh --role table --table N [--party P] [--broker auto|HOST[:PORT]]
#                           [--password-file FILE]
#   systemd/install.sh ... --dry-run      print every command it would run, run none (no root)
#
# The head Pi runs the party's mosquitto, the head unit (rounds, master sheet, hostess screen and
# page, PIN in /etc/bunco/hostess.pin) and table 1's unit (camera, button, bell; its tally on the
# head screen). `bunco setup-broker` writes one password a unit into /etc/mosquitto/bunco/. Copy
# a table's file (/etc/mosquitto/bunco/P-tableN.password) to that table and pass it with
# --password-file, or put it at /etc/bunco/P-tableN.password.
#
# BUNCO_INSTALL_ROOT (for tests and image builds) prefixes every file path this script writes or
# reads (/opt, /etc, /boot); package and service commands are not affected.
set -euo pipefail

usage() {
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
}

die() {
    printf 'install.sh: %s\n' "$*" >&2
    exit 2
}

note() {
    printf '# %s\n' "$*"
}

ROLE=""
TABLE=""
PARTY="bunco"
TABLES=3
BROKER="auto"
PASSWORD_SRC=""
DRY_RUN=0

while [[ $# -gt 0 ]]; do
    case "$1" in
        --role) ROLE="${2:-}"; shift 2 ;;
        --table) TABLE="${2:-}"; shift 2 ;;
        --party) PARTY="${2:-}"; shift 2 ;;
        --tables) TABLES="${2:-}"; shift 2 ;;
        --broker) BROKER="${2:-}"; shift 2 ;;
        --password-file) PASSWORD_SRC="${2:-}"; shift 2 ;;
        --dry-run) DRY_RUN=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument: $1" ;;
    esac
done

case "$ROLE" in
    head)
        [[ -z "$TABLE" || "$TABLE" == 1 ]] || die "--table: the head unit is table 1"
        TABLE=1
        [[ "$TABLES" =~ ^[1-9][0-9]?$ ]] || die "--tables: a number of tables from 1 to 99, not '$TABLES'"
        ;;
    table)
        [[ "$TABLE" =~ ^[1-9][0-9]?$ ]] || die "--table: a table number is needed (2 to 99) for --role table"
        [[ "$TABLE" != 1 ]] || die "--table 1 is the head table: use --role head"
        ;;
    *) usage >&2; die "--role head|table is needed" ;;
esac
[[ "$PARTY" =~ ^[a-z0-9][a-z0-9-]{0,31}$ ]] || die "--party: 1-32 lower-case letters, digits or '-', not '$PARTY'"
[[ "$BROKER" =~ ^(auto|[A-Za-z0-9._-]+(:[0-9]{1,5})?)$ ]] || die "--broker: 'auto' or HOST[:PORT], not '$BROKER'"
if [[ -n "$PASSWORD_SRC" && ! -r "$PASSWORD_SRC" ]]; then
    die "--password-file: cannot read '$PASSWORD_SRC'"
fi
if [[ $DRY_RUN -eq 0 && $EUID -ne 0 ]]; then
    die "run as root (sudo $0 ...), or add --dry-run to see what it would do"
fi

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
R="${BUNCO_INSTALL_ROOT:-}"
PREFIX="$R/opt/bunco"
VENV="$PREFIX/venv"
ETC="$R/etc/bunco"
BROKER_DIR="$R/etc/mosquitto/bunco"
MOSQUITTO_CONF_D="$R/etc/mosquitto/conf.d"
UNIT_DIR="$R/etc/systemd/system"
CMDLINE="$R/boot/firmware/cmdline.txt"
[[ -e "$CMDLINE" || ! -e "$R/boot/cmdline.txt" ]] || CMDLINE="$R/boot/cmdline.txt"  # before bookworm
# the head Pi also plays table 1: both units; a table Pi has only its own
if [[ $ROLE == head ]]; then
    UNITS=(bunco-head.service bunco-table.service)
    OTHER_UNIT=""
else
    UNITS=(bunco-table.service)
    OTHER_UNIT="bunco-head.service"
fi
HEAD_PI_DROP_IN="bunco-table.service.d/head-pi.conf"  # table 1 on the head Pi: its own data and config, no screen
PIN_FILE="$ETC/hostess.pin"
USER_NAME="bunco"
GROUPS_NEEDED=(gpio video render input)
if [[ $ROLE == head ]]; then
    MQTT_USER="$PARTY-head"
else
    MQTT_USER="$PARTY-table$TABLE"
fi
PASSWORD_FILE="/etc/bunco/$MQTT_USER.password"  # as the unit sees it

# Every command that changes the machine goes through run: printed under --dry-run, else run.
# (Printed as a shell would read it: plain words bare, anything else in single quotes.)
shell_word() {
    if [[ "$1" =~ ^[A-Za-z0-9_./:=@%+,-]+$ ]]; then
        printf '%s' "$1"
    else
        printf "'%s'" "${1//\'/\'\\\'\'}"
    fi
}

run() {
    if [[ $DRY_RUN -eq 1 ]]; then
        printf '+'
        local arg
        for arg in "$@"; do
            printf ' '
            shell_word "$arg"
        done
        printf '\n'
    else
        "$@"
    fi
}

# Install a file only when its content differs; 0 when it changed (or would change).
install_if_changed() {  # mode owner:group source destination
    local mode="$1" owner="$2" src="$3" dest="$4"
    if [[ -f "$dest" ]] && cmp -s "$src" "$dest"; then
        return 1
    fi
    run install -D -m "$mode" -o "${owner%%:*}" -g "${owner##*:}" "$src" "$dest"
    return 0
}

# Write text to a new file (never over an existing one: the unit's config is the hostess's).
write_new_file() {  # mode owner:group destination text
    local mode="$1" owner="$2" dest="$3" text="$4"
    if [[ $DRY_RUN -eq 1 ]]; then
        printf '+ write %q (mode %s, %s):\n' "$dest" "$mode" "$owner"
        printf '%s' "$text" | sed 's/^/|   /'
        return
    fi
    local tmp
    tmp="$(mktemp "$dest.XXXXXX")"
    printf '%s' "$text" >"$tmp"
    chmod "$mode" "$tmp"
    chown "$owner" "$tmp"
    mv -f "$tmp" "$dest"
}

has_candidate() {  # apt knows the package (after its lists were read once)
    apt-cache policy "$1" 2>/dev/null | grep -Eq '^ *Candidate: *[^( ]'
}

is_installed() {
    [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" == "install ok installed" ]]
}

note "Bunco $ROLE unit, table $TABLE, party '$PARTY', from $SRC$([[ $DRY_RUN -eq 1 ]] && echo ' (dry run: nothing is changed)')"

# --- system packages ----------------------------------------------------------------------------
# the screen on the console: SDL's kmsdrm driver (in pygame's wheel) opens GBM and EGL/GLES at run
# time, which Raspberry Pi OS Lite may lack (pygame then says "kmsdrm not available" or
# "Could not initialize EGL")
PACKAGES=(python3-venv python3-picamera2 python3-lgpio liblgpio1 libgbm1 libegl1 libgles2 libgl1-mesa-dri)
[[ $ROLE == head ]] && PACKAGES+=(mosquitto)
# Raspberry Pi OS's own packages: on another Debian (a PC as the head, a test container) apt has
# no candidate for them; the unit then runs without picamera2 (a USB camera: --camera 0) and lgpio.
PI_ONLY=" python3-picamera2 python3-lgpio liblgpio1 "
MISSING=()
for p in "${PACKAGES[@]}"; do
    is_installed "$p" && continue
    if [[ "$PI_ONLY" == *" $p "* ]] && ! has_candidate "$p"; then
        note "no $p in this system's apt sources (not Raspberry Pi OS?): left out"
        continue
    fi
    MISSING+=("$p")
done
if [[ ${#MISSING[@]} -gt 0 ]]; then
    run apt-get update
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${MISSING[@]}"
else
    note "system packages: all there"
fi

# --- the service user ---------------------------------------------------------------------------
for g in "${GROUPS_NEEDED[@]}"; do
    getent group "$g" >/dev/null || run groupadd --system "$g"
done
if ! id -u "$USER_NAME" >/dev/null 2>&1; then
    run useradd --system --user-group --home-dir /var/lib/bunco --no-create-home \
        --shell /usr/sbin/nologin --comment "Bunco appliance" "$USER_NAME"
fi
# The unit gets these groups by SupplementaryGroups=; membership lets `sudo -u bunco bunco hwtest` work too.
HAVE_GROUPS=" $(id -nG "$USER_NAME" 2>/dev/null || true) "
ADD_GROUPS=()
for g in "${GROUPS_NEEDED[@]}"; do
    [[ "$HAVE_GROUPS" == *" $g "* ]] || ADD_GROUPS+=("$g")
done
if [[ ${#ADD_GROUPS[@]} -gt 0 ]]; then
    run usermod --append --groups "$(IFS=,; echo "${ADD_GROUPS[*]}")" "$USER_NAME"
fi

# --- the program: a venv that also sees apt's picamera2 and lgpio -------------------------------
if [[ ! -x "$VENV/bin/python" ]]; then
    run install -d -m 0755 "$PREFIX"
    run python3 -m venv --system-site-packages "$VENV"
fi
run "$VENV/bin/pip" install --quiet --disable-pip-version-check "${SRC}[pi]"

# --- config ---------------------------------------------------------------------------------------
[[ -d "$ETC" ]] || run install -d -m 0750 -o root -g "$USER_NAME" "$ETC"

# --- the broker (head only) -----------------------------------------------------------------------
RELOAD_BROKER=0
RESTART_BROKER=0
if [[ $ROLE == head ]]; then
    SETUP=("$VENV/bin/bunco" setup-broker --party "$PARTY" --tables "$TABLES"
           --out "$BROKER_DIR" --conf-dir /etc/mosquitto/bunco)
    if [[ $DRY_RUN -eq 1 ]]; then
        run "${SETUP[@]}"
    else
        OUT="$("${SETUP[@]}")"
        printf '%s\n' "$OUT"
        [[ "$OUT" == *"changed: nothing"* ]] || RELOAD_BROKER=1
    fi
    # mosquitto (its own user) reads passwd and acl; the clear passwords stay root's.
    run chown root:mosquitto "$BROKER_DIR" "$BROKER_DIR/passwd" "$BROKER_DIR/acl"
    run chmod 0750 "$BROKER_DIR"
    run chmod 0640 "$BROKER_DIR/passwd" "$BROKER_DIR/acl"
    if [[ $DRY_RUN -eq 1 ]]; then
        run install -D -m 0644 -o root -g root "$BROKER_DIR/mosquitto.conf" "$MOSQUITTO_CONF_D/bunco.conf"
    elif install_if_changed 0644 root:root "$BROKER_DIR/mosquitto.conf" "$MOSQUITTO_CONF_D/bunco.conf"; then
        RESTART_BROKER=1
    fi
    if install_if_changed 0644 root:root "$SRC/systemd/mosquitto.service.d/bunco.conf" \
            "$UNIT_DIR/mosquitto.service.d/bunco.conf"; then
        RESTART_BROKER=1
    fi
    if [[ -f "$R/etc/mosquitto/mosquitto.conf" ]] && \
            ! grep -q '^include_dir /etc/mosquitto/conf.d' "$R/etc/mosquitto/mosquitto.conf"; then
        note "WARNING: /etc/mosquitto/mosquitto.conf has no 'include_dir /etc/mosquitto/conf.d': add it"
    fi
    # The head unit's own credentials (and table 1's, which it also plays) for the unit to read.
    for u in "$PARTY-head" "$PARTY-table1"; do
        if [[ $DRY_RUN -eq 1 ]]; then
            run install -m 0600 -o "$USER_NAME" -g "$USER_NAME" "$BROKER_DIR/$u.password" "$ETC/$u.password"
        else
            install_if_changed 0600 "$USER_NAME:$USER_NAME" "$BROKER_DIR/$u.password" "$ETC/$u.password" || true
        fi
    done
    BROKER_ADDR="localhost:1883"
else
    BROKER_ADDR="$BROKER"
    if [[ -n "$PASSWORD_SRC" ]]; then
        install_if_changed 0600 "$USER_NAME:$USER_NAME" "$PASSWORD_SRC" "$ETC/$MQTT_USER.password" || true
    fi
fi

if [[ ! -f "$ETC/unit.toml" ]]; then
    PLAYERS_HINT=""
    if [[ $ROLE == head ]]; then
        PLAYERS_HINT='# The night'"'"'s players, or type them on the hostess page (its address and QR code are on
# the head screen).
# players = ["Stacy", "Carol", "Wanda", "Hannah"]
'
    fi
    write_new_file 0640 "root:$USER_NAME" "$ETC/unit.toml" "# This Bunco unit's settings, written once by systemd/install.sh (never overwritten).
table = $TABLE
$PLAYERS_HINT
[network]
party = \"$PARTY\"
broker = \"$BROKER_ADDR\"
username = \"$MQTT_USER\"
password_file = \"$PASSWORD_FILE\"
"
elif ! grep -Eq "^table *= *$TABLE *(#.*)?$" "$ETC/unit.toml"; then
    note "WARNING: $ETC/unit.toml is kept as it is, but does not say 'table = $TABLE'"
fi

if [[ $ROLE == head ]]; then
    # table 1's unit on this Pi: its own config (bunco calibrate writes its [camera] here)
    if [[ ! -f "$ETC/table1.toml" ]]; then
        write_new_file 0640 "root:$USER_NAME" "$ETC/table1.toml" "# Table 1 on the head Pi, written once by systemd/install.sh (never overwritten).
table = 1

[network]
party = \"$PARTY\"
broker = \"localhost:1883\"
username = \"$PARTY-table1\"
password_file = \"/etc/bunco/$PARTY-table1.password\"
"
    fi
    # the hostess's PIN: made once, kept with the unit's secrets, shown on the head screen on request
    if [[ ! -s "$PIN_FILE" ]]; then
        if [[ $DRY_RUN -eq 1 ]]; then
            printf '+ write %q (mode 0600, %s): a new 6-digit PIN\n' "$PIN_FILE" "$USER_NAME:$USER_NAME"
        else
            PIN="$(printf '%06d' "$(shuf -i 0-999999 -n 1 --random-source=/dev/urandom)")"
            write_new_file 0600 "$USER_NAME:$USER_NAME" "$PIN_FILE" "$PIN
"
        fi
    fi
fi

# --- the screen never sleeps ----------------------------------------------------------------------
if [[ -f "$CMDLINE" ]]; then
    if grep -Eq '(^| )consoleblank=0( |$)' "$CMDLINE"; then
        note "console blanking: already off"
    elif grep -Eq '(^| )consoleblank=' "$CMDLINE"; then
        run sed -i -E '1s/(^| )consoleblank=[0-9]+/\1consoleblank=0/' "$CMDLINE"
    else
        run sed -i '1s/$/ consoleblank=0/' "$CMDLINE"
    fi
else
    note "no $CMDLINE (not a Raspberry Pi?): add consoleblank=0 to the kernel command line by hand"
fi

# --- the units ------------------------------------------------------------------------------------
CHANGED_UNITS=0
for u in "${UNITS[@]}"; do
    if install_if_changed 0644 root:root "$SRC/systemd/$u" "$UNIT_DIR/$u"; then
        CHANGED_UNITS=1
    fi
done
if [[ $ROLE == head ]]; then
    if install_if_changed 0644 root:root "$SRC/systemd/$HEAD_PI_DROP_IN" "$UNIT_DIR/$HEAD_PI_DROP_IN"; then
        CHANGED_UNITS=1
    fi
elif [[ -f "$UNIT_DIR/$HEAD_PI_DROP_IN" ]]; then
    run rm -f "$UNIT_DIR/$HEAD_PI_DROP_IN"
    CHANGED_UNITS=1
fi
if [[ $CHANGED_UNITS -eq 1 || $RESTART_BROKER -eq 1 ]]; then
    run systemctl daemon-reload
fi
if [[ -n "$OTHER_UNIT" && -f "$UNIT_DIR/$OTHER_UNIT" ]]; then
    note "this Pi was the head unit before: switching to a table"
    run systemctl disable --now "$OTHER_UNIT"
    run rm -f "$UNIT_DIR/$OTHER_UNIT"
fi
# tty1 is the screen: its login prompt would fight the unit for it at boot.
if [[ "$(systemctl is-enabled getty@tty1.service 2>/dev/null || true)" == enabled ]]; then
    run systemctl disable getty@tty1.service
fi
if [[ $ROLE == head ]]; then
    run systemctl enable mosquitto.service
    if [[ $RESTART_BROKER -eq 1 ]]; then
        run systemctl restart mosquitto.service
    elif [[ $RELOAD_BROKER -eq 1 ]]; then
        run systemctl reload-or-restart mosquitto.service  # mosquitto rereads passwd and acl on SIGHUP
    fi
fi
run systemctl enable "${UNITS[@]}"

if [[ $ROLE == table && -z "$PASSWORD_SRC" && ! -f "$ETC/$MQTT_USER.password" ]]; then
    note "STILL TO DO: copy /etc/mosquitto/bunco/$MQTT_USER.password from the head unit to $PASSWORD_FILE"
    note "(owner $USER_NAME, mode 0600), e.g. rerun with --password-file FILE"
fi
if [[ $ROLE == head ]]; then
    note "the hostess page: http://$(hostname).local:8080/ (address, QR code and PIN on the head screen;"
    note "the PIN: sudo cat /etc/bunco/hostess.pin). Table 1's camera: bunco calibrate --config /etc/bunco/table1.toml"
fi
note "done: ${UNITS[*]} start at the next boot (or now: systemctl start ${UNITS[*]})"
