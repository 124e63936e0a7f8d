#!/usr/bin/env bash
# Install the tabletop companion as a service on Raspberry Pi OS (Bookworm or later).
# The user's guide is docs/install.md.
#
#   sudo systemd/install.sh [--pico SERIAL]    from a checkout of the project
#   DRY_RUN=1 systemd/install.sh               print what would be done, change nothing
#
# --pico SERIAL binds /dev/companion-pico to the Pico with that USB serial number (the
# part after "Board_in_FS_mode_" in ls /dev/serial/by-id/); without it, the Pico plugged in
# is found, or the one of the rule already installed is kept.
#
# It installs the system packages (and those of the configured readers and voice), enables I2C (at
# 400 kHz: a whole OLED frame, sent at power-on and after an I2C error, is 23 ms against
# 93 ms at 100 kHz) and SPI, disables the serial console and UART (the default pin map
# puts seat buttons on GPIO 14/15), creates the user `companion` in the gpio, spi, i2c and
# dialout groups, installs the code in a venv under PREFIX, the config and pin map in ETC
# (kept if already there; the config, which may hold the club's password, readable by root
# and the service's group only), the udev rule of the Pico and the unit, with the network
# the config's web page and club need, and enables the unit.
# I2C/SPI/UART changes need a reboot; the script says so. Anything it refuses, it refuses
# before changing the system (a new config in ETC aside), with one line saying why.
#
# Environment (defaults in brackets); PREFIX, ETC, DATA and SERVICE_USER are written into
# the unit, so the service runs what was installed where it was installed:
#   PREFIX [/opt/companion]        the venv and a copy of the documented example config
#   ETC [/etc/companion]           companion.toml and pins.toml
#   DATA [/var/lib/companion]      the data directory (journal, tags); a new config's
#                                  paths.data_dir, and an existing config's must match
#   SERVICE_USER [companion]
#   CONFIG_TXT [/boot/firmware/config.txt, else /boot/config.txt]
#   UNIT_DIR [/etc/systemd/system]  UDEV_DIR [/etc/udev/rules.d]
#   SERIAL_BY_ID [/dev/serial/by-id]  where the plugged-in Pico is looked for
#   DRY_RUN [0]
set -euo pipefail

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX="${PREFIX:-/opt/companion}"
ETC="${ETC:-/etc/companion}"
DATA="${DATA:-/var/lib/companion}"
SERVICE_USER="${SERVICE_USER:-companion}"
UNIT_DIR="${UNIT_DIR:-/etc/systemd/system}"
UDEV_DIR="${UDEV_DIR:-/etc/udev/rules.d}"
SERIAL_BY_ID="${SERIAL_BY_ID:-/dev/serial/by-id}"
DRY_RUN="${DRY_RUN:-0}"
REBOOT=0
PICO=""
# The unit's groups: without any of them systemd cannot start it (status 216/GROUP).
GROUPS_NEEDED="gpio spi i2c dialout"
RULE=99-companion-pico.rules

say() { printf '==> %s\n' "$*"; }
refuse() {
    printf 'install.sh: %s\n' "$*" >&2
    exit 1
}
run() {
    if [ "$DRY_RUN" = 1 ]; then
        printf '+ %s\n' "$*"
    else
        "$@"
    fi
}
# put FILE MODE [WHAT]: write standard input to FILE (DRY_RUN: show it, or say WHAT it is).
put() {
    if [ "$DRY_RUN" = 1 ]; then
        if [ $# -ge 3 ]; then
            printf '+ write %s (mode %s): %s\n' "$1" "$2" "$3"
            cat >/dev/null
        else
            printf '+ write %s (mode %s):\n' "$1" "$2"
            sed 's/^/    /'
        fi
        return
    fi
    local tmp
    tmp="$(mktemp)"
    cat >"$tmp"
    install -m "$2" "$tmp" "$1"
    rm -f "$tmp"
}

while [ $# -gt 0 ]; do
    case "$1" in
        --pico)
            [ $# -ge 2 ] || refuse "--pico needs the Pico's serial number (ls $SERIAL_BY_ID)"
            PICO="$2"
            shift 2
            ;;
        --pico=*)
            PICO="${1#--pico=}"
            shift
            ;;
        -h | --help)
            sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
            exit 0
            ;;
        *) refuse "unknown option $1 (the options: --pico SERIAL, --help)" ;;
    esac
done
if [ -n "$PICO" ] && ! [[ "$PICO" =~ ^[A-Za-z0-9]+$ ]]; then
    refuse "--pico $PICO: a Pico's serial number is letters and digits (the part after" \
        "Board_in_FS_mode_ in ls $SERIAL_BY_ID)"
fi

# The paths go into the unit file: absolute, and nothing systemd would read as syntax.
for var in PREFIX ETC DATA; do
    value="${!var%/}"
    if ! [[ "$value" =~ ^(/[A-Za-z0-9._-]+)+$ ]] || [[ "$value" =~ /\.\.?(/|$) ]]; then
        refuse "$var=${!var}: give an absolute path of letters, digits, '.', '_' and '-'"
    fi
    case "$value/" in
        /home/* | /root/* | /run/user/*)
            refuse "$var=$value: the service cannot see /home, /root or /run/user" \
                "(ProtectHome=yes in companion.service): choose another folder"
            ;;
    esac
    printf -v "$var" '%s' "$value"
done
if ! [[ "$SERVICE_USER" =~ ^[a-z_][a-z0-9_-]*$ ]]; then
    refuse "SERVICE_USER=$SERVICE_USER: give a user name of lower-case letters, digits," \
        "'_' and '-'"
fi

if [ "$DRY_RUN" != 1 ] && [ "$(id -u)" -ne 0 ]; then
    refuse "run it as root (sudo $0), or DRY_RUN=1 $0 to see the steps"
fi
for f in systemd/companion.service "systemd/$RULE" companion/config/install_facts.py \
         docs/companion.example.toml hardware/pins.toml pyproject.toml; do
    [ -f "$SRC/$f" ] || refuse "$SRC/$f is missing: run the script from a full checkout"
done

# ---------------------------------------------------------------- refusals come first

missing=""
for group in $GROUPS_NEEDED; do
    getent group "$group" >/dev/null 2>&1 || missing="$missing $group"
done
if [ -n "$missing" ]; then
    # Not created here: an empty group would let the unit start, but only Raspberry Pi
    # OS's own udev rules give it /dev/gpiochip*, /dev/spidev* and /dev/i2c-*.
    message="group(s)$missing missing: the service runs in groups $GROUPS_NEEDED, which"
    message="$message Raspberry Pi OS creates and gives its GPIO, SPI and I2C devices"
    if [ "$DRY_RUN" = 1 ]; then
        echo "install.sh: $message (DRY_RUN: going on)" >&2
    else
        refuse "$message: install on Raspberry Pi OS, or create them and such udev rules first"
    fi
fi

command -v python3 >/dev/null 2>&1 || refuse "python3 is missing: apt-get install python3"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
    refuse "python3 is older than 3.11: install on Raspberry Pi OS Bookworm or later"

say "configuration in $ETC (an existing file is kept)"
CONFIG="$ETC/companion.toml"
NEW_CONFIG=0
run install -d -m 0755 "$ETC"
if [ ! -f "$CONFIG" ]; then
    NEW_CONFIG=1
    # The documented example, with the data directory of this installation.
    sed "s#^data_dir = \"/var/lib/companion\"\$#data_dir = \"$DATA\"#" \
        "$SRC/docs/companion.example.toml" |
        put "$CONFIG" 0640 "docs/companion.example.toml with data_dir = \"$DATA\""
fi
if [ ! -f "$ETC/pins.toml" ]; then
    run install -m 0644 "$SRC/hardware/pins.toml" "$ETC/pins.toml"
fi

# What the configuration needs, read by the project's own parser (the standard library
# only, so the system's Python runs it before anything is installed); -P: this checkout's,
# never a `companion` of the current folder.
facts_of="$CONFIG"
[ -f "$facts_of" ] || facts_of="$SRC/docs/companion.example.toml" # DRY_RUN on a new Pi
if ! facts="$(PYTHONPATH="$SRC" python3 -S -P -m companion.config.install_facts \
        --config "$facts_of")"; then
    refuse "fix $CONFIG (see above; docs/companion.example.toml documents every key)," \
        "then run install.sh again"
fi
READERS=pico PICO_PORT=/dev/companion-pico WEB=on DATA_DIR="" SOUND=none
NETWORK_ALLOW="" NETWORK_LISTEN="" NETWORK="" CLUB_TLS_CA=""
while IFS='=' read -r key value; do
    case "$key" in
        readers) READERS="$value" ;;
        pico_port) PICO_PORT="$value" ;;
        web) WEB="$value" ;;
        network_allow) NETWORK_ALLOW="$value" ;;
        network_listen) NETWORK_LISTEN="$value" ;;
        network) NETWORK="$value" ;;
        club_tls_ca) CLUB_TLS_CA="$value" ;;
        data_dir) DATA_DIR="${value%/}" ;;
        sound) SOUND="$value" ;;
    esac
done <<<"$facts"
if [ "$NEW_CONFIG" = 0 ] && [ "$DATA_DIR" != "$DATA" ]; then
    refuse "$CONFIG: paths.data_dir is $DATA_DIR but DATA is $DATA: the service can" \
        "write only DATA; run DATA=$DATA_DIR $0, or set paths.data_dir = \"$DATA\""
fi
case "$CLUB_TLS_CA/" in
    /home/* | /root/* | /run/user/*)
        refuse "$CONFIG: club.tls_ca is $CLUB_TLS_CA, which the service cannot see" \
            "(ProtectHome=yes in companion.service): copy it next to the config"
        ;;
esac
if [ "$SOUND" = espeak-ng ]; then
    # espeak-ng plays through ALSA: the unit joins the audio group (drop-in below).
    if ! getent group audio >/dev/null 2>&1; then
        message="group audio missing: [sound] backend = \"espeak-ng\" in $CONFIG plays"
        message="$message through the Pi's audio devices, which Raspberry Pi OS gives group audio"
        if [ "$DRY_RUN" = 1 ]; then
            echo "install.sh: $message (DRY_RUN: going on)" >&2
        else
            refuse "$message: install on Raspberry Pi OS, or set backend = \"none\""
        fi
    fi
    GROUPS_NEEDED="$GROUPS_NEEDED audio"
fi
say "configured: readers $READERS, web page $WEB, sound $SOUND, data directory $DATA"
say "$NETWORK"

# The Pico the udev rule binds /dev/companion-pico to: --pico; else the installed rule's
# while it is plugged in; else the only one plugged in; else the installed rule's.
find_picos() {
    local link props
    for link in "$SERIAL_BY_ID"/*; do
        [ -e "$link" ] || continue
        props="$(udevadm info --query=property --name="$link" 2>/dev/null)" || continue
        if grep -qx 'ID_VENDOR_ID=2e8a' <<<"$props" &&
            grep -qx 'ID_MODEL_ID=0005' <<<"$props"; then
            sed -n 's/^ID_SERIAL_SHORT=\([A-Za-z0-9]\{1,\}\)$/\1/p' <<<"$props"
        fi
    done | sort -u
}
installed_serial=""
if [ -f "$UDEV_DIR/$RULE" ]; then
    installed_serial="$(sed -n 's/.*ATTRS{serial}=="\([A-Za-z0-9]*\)".*/\1/p' \
        "$UDEV_DIR/$RULE" | head -n 1)"
fi
found="$(find_picos | tr '\n' ' ')"
found="${found% }"
PICO_USED=0
[ "$READERS" = pico ] && [ "$PICO_PORT" = /dev/companion-pico ] && PICO_USED=1
if [ -n "$PICO" ]; then
    case " $found " in
        *" $PICO "*) say "the Pico: $PICO (--pico)" ;;
        *) say "the Pico: $PICO (--pico; not plugged in now)" ;;
    esac
elif [ -n "$installed_serial" ] && [[ " $found " == *" $installed_serial "* ]]; then
    PICO="$installed_serial"
    say "the Pico: $PICO (the installed rule's, plugged in)"
elif [ -n "$found" ] && [ "$found" = "${found%% *}" ]; then
    PICO="$found"
    say "the Pico: $PICO (plugged in)"
elif [ -n "$found" ]; then
    refuse "several Picos are plugged in ($found): choose the table's with --pico SERIAL"
elif [ -n "$installed_serial" ]; then
    PICO="$installed_serial"
    say "the Pico: $PICO (the installed rule's; not plugged in now)"
elif [ "$PICO_USED" = 1 ] && [ "$DRY_RUN" = 1 ]; then
    echo "install.sh: no Pico found in $SERIAL_BY_ID: plug it in or give --pico SERIAL" \
        "(DRY_RUN: going on)" >&2
elif [ "$PICO_USED" = 1 ]; then
    refuse "no Pico found in $SERIAL_BY_ID, and $CONFIG reads the readers on" \
        "/dev/companion-pico: plug the Pico in, or give --pico SERIAL"
else
    say "no Pico found: the udev rule stays unbound (it names any MicroPython Pico" \
        "/dev/companion-pico); the config does not use it"
fi

# ---------------------------------------------------------------- the system

say "system packages"
packages="python3 python3-venv python3-pip python3-lgpio i2c-tools"
if [ "$READERS" = spi ]; then
    # The pi extra (mfrc522, spidev, RPi.GPIO): spidev from the system, and what pip needs
    # to build RPi.GPIO, which PyPI has no wheel of for the Pi.
    packages="$packages python3-spidev python3-dev gcc"
fi
if [ "$SOUND" = espeak-ng ]; then
    packages="$packages espeak-ng" # the table's voice ([sound], docs/table.md)
fi
run apt-get update
# shellcheck disable=SC2086 # one word per package
run apt-get install -y --no-install-recommends $packages

CONFIG_TXT="${CONFIG_TXT:-}"
if [ -z "$CONFIG_TXT" ]; then
    CONFIG_TXT=/boot/firmware/config.txt
    [ -f "$CONFIG_TXT" ] || CONFIG_TXT=/boot/config.txt
fi
if command -v raspi-config >/dev/null 2>&1 || [ "$DRY_RUN" = 1 ]; then
    say "enable I2C and SPI, disable the serial console and UART (buttons on GPIO 14/15)"
    run raspi-config nonint do_i2c 0
    run raspi-config nonint do_spi 0
    run raspi-config nonint do_serial_cons 1
    run raspi-config nonint do_serial_hw 1
    REBOOT=1
else
    echo "install.sh: raspi-config not found: enable I2C and SPI and disable the serial" \
         "console yourself" >&2
fi

# config.txt applies a line only under the last [section] before it ([pi4], [cm5]...):
# the line goes under [all], which is added when the file ends in another section.
BAUD_LINE=dtparam=i2c_arm_baudrate=400000
# shellcheck disable=SC2016 # awk's own $0
section_awk='
    /^[ \t]*\[/ { s = tolower($0); gsub(/[][ \t\r]/, "", s) }
    s == "all" && /^[ \t]*dtparam=i2c_arm_baudrate=/ { found = 1 }
    END { if (mode == "last") print s; else exit !found }'
if [ -f "$CONFIG_TXT" ] || [ "$DRY_RUN" = 1 ]; then
    if [ -f "$CONFIG_TXT" ] && awk -v s=all -v mode=has "$section_awk" "$CONFIG_TXT"; then
        say "I2C speed: already set under [all] in $CONFIG_TXT"
    else
        say "I2C at 400 kHz in $CONFIG_TXT, under [all]"
        addition=""
        if [ -s "$CONFIG_TXT" ]; then
            # a last line without its newline gets one
            [ -z "$(tail -c 1 "$CONFIG_TXT")" ] || addition=$'\n'
            if [ "$(awk -v s=all -v mode=last "$section_awk" "$CONFIG_TXT")" != all ]; then
                addition+=$'\n[all]\n'
            fi
        fi
        addition+="$BAUD_LINE"$'\n'
        if [ "$DRY_RUN" = 1 ]; then
            printf '+ append to %s:\n' "$CONFIG_TXT"
            printf '%s' "$addition" | sed 's/^/    /'
        else
            printf '%s' "$addition" >>"$CONFIG_TXT"
        fi
        REBOOT=1
    fi
else
    echo "install.sh: no $CONFIG_TXT: add $BAUD_LINE under [all] in the Pi's config.txt" \
         "yourself" >&2
fi

say "user $SERVICE_USER"
if ! id "$SERVICE_USER" >/dev/null 2>&1; then
    run useradd --system --user-group --home-dir "$DATA" --no-create-home \
        --shell /usr/sbin/nologin "$SERVICE_USER"
fi
for group in $GROUPS_NEEDED; do
    run usermod -aG "$group" "$SERVICE_USER"
done

# The config may hold the club's password: root writes it, the service's group reads it.
mode="$(stat -c '%a %U:%G' "$CONFIG" 2>/dev/null || echo "640 root:root")"
if [ "$mode" != "640 root:$SERVICE_USER" ]; then
    if [ "$NEW_CONFIG" = 0 ]; then
        say "$CONFIG was $mode: now 0640 root:$SERVICE_USER (it may hold the club's password)"
    fi
    run chown "root:$SERVICE_USER" "$CONFIG"
    run chmod 0640 "$CONFIG"
fi

say "code in $PREFIX (Python venv; lgpio and spidev from the system packages)"
run install -d -m 0755 "$PREFIX"
run python3 -m venv --system-site-packages "$PREFIX/venv"
run "$PREFIX/venv/bin/pip" install --quiet --upgrade pip
if [ "$READERS" = spi ]; then
    run "$PREFIX/venv/bin/pip" install --quiet "${SRC}[pi]"
    # Without its dependencies: it asks for RPi.GPIO, which the pi extra provides as
    # rpi-lgpio on a 64-bit system (the two packages cannot coexist).
    run "$PREFIX/venv/bin/pip" install --quiet --no-deps "mfrc522>=0.0.7"
else
    run "$PREFIX/venv/bin/pip" install --quiet "$SRC"
fi
run rm -rf "$PREFIX/src"
run install -d -m 0755 "$PREFIX/src/docs"
run install -m 0644 "$SRC/docs/companion.example.toml" "$PREFIX/src/docs/"

say "data directory $DATA"
run install -d -m 0700 -o "$SERVICE_USER" -g "$SERVICE_USER" "$DATA"

say "udev rule of the Pico (/dev/companion-pico)"
run install -d -m 0755 "$UDEV_DIR"
if [ -n "$PICO" ]; then
    {
        echo "# Installed by systemd/install.sh, bound to the Pico with serial $PICO"
        echo "# (install.sh --pico SERIAL binds another: docs/install.md)."
        symlink='SYMLINK+="companion-pico"'
        sed "s/, $symlink/, ATTRS{serial}==\"$PICO\", $symlink/" "$SRC/systemd/$RULE"
    } | put "$UDEV_DIR/$RULE" 0644
else
    run install -m 0644 "$SRC/systemd/$RULE" "$UDEV_DIR/$RULE"
fi
run udevadm control --reload
run udevadm trigger --subsystem-match=tty

say "the configuration, as the service will read it"
if [ "$DRY_RUN" = 1 ]; then
    printf '+ runuser -u %s -- %s\n' "$SERVICE_USER" \
        "$PREFIX/venv/bin/python -m companion.service config check --config $CONFIG"
elif ! runuser -u "$SERVICE_USER" -- "$PREFIX/venv/bin/python" -m companion.service \
        config check --config "$CONFIG"; then
    echo "install.sh: fix $CONFIG (see above), then: sudo systemctl restart companion" >&2
fi

# The unit with this installation's paths and user: the repository's file names the
# defaults, replaced line by line.
render_unit() {
    local line
    while IFS= read -r line || [ -n "$line" ]; do
        case "$line" in
            User=*) line="User=$SERVICE_USER" ;;
            Group=*) line="Group=$SERVICE_USER" ;;
            StateDirectory=*)
                if [[ "$DATA" == /var/lib/?* ]]; then
                    line="StateDirectory=${DATA#/var/lib/}"
                else
                    line="ReadWritePaths=$DATA"
                fi
                ;;
            StateDirectoryMode=*) [[ "$DATA" == /var/lib/?* ]] || continue ;;
            ConfigurationDirectory=*)
                [[ "$ETC" == /etc/?* ]] || continue
                line="ConfigurationDirectory=${ETC#/etc/}"
                ;;
            *)
                # through placeholders, so a value holding another default is left alone
                line="${line//\/opt\/companion/@PREFIX@}"
                line="${line//\/etc\/companion/@ETC@}"
                line="${line//\/var\/lib\/companion/@DATA@}"
                line="${line//@PREFIX@/$PREFIX}"
                line="${line//@ETC@/$ETC}"
                line="${line//@DATA@/$DATA}"
                ;;
        esac
        printf '%s\n' "$line"
    done <"$SRC/systemd/companion.service"
}

# The network the page and the club need (companion/config/unit_network.py), which the
# unit's own sandbox forbids.
network_dropin() {
    cat <<EOF
# Written by systemd/install.sh because of [web] or [club] in $CONFIG:
# ${NETWORK#service network: }.
# Run install.sh again after changing [web] or [club].
[Service]
# What \`systemd-analyze security\` counts here, and why: PrivateNetwork=no and
# RestrictAddressFamilies= with AF_INET and AF_INET6 are the host's network, for the page
# (and \`companion unpair\` on the Pi itself) and the club's broker; IPAddressDeny= stays
# "any" (the unit's), the addresses below allowed.
PrivateNetwork=no
RestrictAddressFamilies=
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6
# The Pi itself (localhost) and, for the page on the table's network or a club broker
# given by name (IPAddressAllow= holds no names, and the broker's address may change), the
# table's network: link-local and private addresses, where its name servers are too. A
# broker given by address is allowed alone. A network of public addresses adds its own
# (docs/install.md).
IPAddressAllow=$NETWORK_ALLOW
EOF
    if [ -n "$NETWORK_LISTEN" ]; then
        echo "# It listens on the page's port alone."
        echo "SocketBindAllow=tcp:$NETWORK_LISTEN"
    else
        echo "# No page: it listens on no port, and only connects out to the club's broker."
    fi
    echo "SocketBindDeny=any"
}

# [sound] backend = "espeak-ng": the voice plays through ALSA, which the unit's device list
# and groups leave closed.
sound_dropin() {
    cat <<EOF
# Written by systemd/install.sh because [sound] backend is "espeak-ng" in $CONFIG:
# the table speaks (docs/table.md) through the Pi's audio output.
# Run install.sh again after changing [sound].
[Service]
# The audio group opens ALSA's devices (/dev/snd/*), allowed by their fixed major number,
# 116, like the unit's other devices (a USB speaker plugged in later is allowed too).
SupplementaryGroups=audio
DeviceAllow=char-116 rw
EOF
}

say "systemd unit"
run install -d -m 0755 "$UNIT_DIR"
render_unit | put "$UNIT_DIR/companion.service" 0644
run rm -f "$UNIT_DIR/companion.service.d/web.conf" # the page's alone, before the club
if [ -n "$NETWORK_ALLOW" ]; then
    run install -d -m 0755 "$UNIT_DIR/companion.service.d"
    network_dropin | put "$UNIT_DIR/companion.service.d/network.conf" 0644
else
    run rm -f "$UNIT_DIR/companion.service.d/network.conf"
fi
if [ "$SOUND" = espeak-ng ]; then
    run install -d -m 0755 "$UNIT_DIR/companion.service.d"
    sound_dropin | put "$UNIT_DIR/companion.service.d/sound.conf" 0644
else
    run rm -f "$UNIT_DIR/companion.service.d/sound.conf"
fi
run systemctl daemon-reload
run systemctl enable companion.service

if [ "$REBOOT" = 1 ]; then
    say "done: reboot to enable I2C/SPI and start the companion (sudo reboot)"
else
    run systemctl restart companion.service
    say "done: journalctl -u companion -f shows the service"
fi
