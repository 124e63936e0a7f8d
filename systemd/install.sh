#!/usr/bin/env bash
# Install the tabletop companion as a service on Raspberry Pi OS (Bookworm or later).
#
#   sudo systemd/install.sh            from a checkout of the project
#   DRY_RUN=1 systemd/install.sh       print what would be done, change nothing
#
# It installs the system packages, enables I2C (at 400 kHz: a whole OLED frame, sent at
# power-on and after an I2C error, is 23 ms against 93 ms at 100 kHz) and SPI, disables
# the serial console and UART (the default pin map puts seat buttons on GPIO 14/15),
# creates the user `companion` in the gpio, spi, i2c and dialout groups, installs the
# code in /opt/companion/venv, the config and pin map in /etc/companion (kept if already
# there), the udev rule of the Pico and the unit, and enables the unit. I2C/SPI/UART
# changes need a reboot; the script says so.
set -euo pipefail

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX="${PREFIX:-/opt/companion}"
ETC="${ETC:-/etc/companion}"
DATA="${DATA:-/var/lib/companion}"
SERVICE_USER="${SERVICE_USER:-companion}"
DRY_RUN="${DRY_RUN:-0}"
REBOOT=0

say() { printf '==> %s\n' "$*"; }
run() {
    if [ "$DRY_RUN" = 1 ]; then
        printf '+ %s\n' "$*"
    else
        "$@"
    fi
}

if [ "$DRY_RUN" != 1 ] && [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run it as root (sudo $0), or DRY_RUN=1 $0 to see the steps" >&2
    exit 1
fi
for f in systemd/companion.service systemd/99-companion-pico.rules \
         docs/companion.example.toml hardware/pins.toml pyproject.toml; do
    if [ ! -f "$SRC/$f" ]; then
        echo "install.sh: $SRC/$f is missing: run the script from a full checkout" >&2
        exit 1
    fi
done

say "system packages"
run apt-get update
run apt-get install -y --no-install-recommends \
    python3 python3-venv python3-pip python3-lgpio python3-spidev i2c-tools

CONFIG_TXT=/boot/firmware/config.txt
[ -f "$CONFIG_TXT" ] || CONFIG_TXT=/boot/config.txt
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
if [ "$DRY_RUN" = 1 ] || { [ -f "$CONFIG_TXT" ] && ! grep -q '^dtparam=i2c_arm_baudrate=' "$CONFIG_TXT"; }; then
    say "I2C at 400 kHz in $CONFIG_TXT"
    if [ "$DRY_RUN" = 1 ]; then
        printf '+ echo dtparam=i2c_arm_baudrate=400000 >> %s\n' "$CONFIG_TXT"
    else
        echo 'dtparam=i2c_arm_baudrate=400000' >> "$CONFIG_TXT"
    fi
    REBOOT=1
fi

say "user $SERVICE_USER"
if ! id "$SERVICE_USER" >/dev/null 2>&1; then
    run useradd --system --user-group --home-dir "$DATA" --no-create-home \
        --shell /usr/sbin/nologin "$SERVICE_USER"
fi
for group in gpio spi i2c dialout; do
    if getent group "$group" >/dev/null 2>&1 || [ "$DRY_RUN" = 1 ]; then
        run usermod -aG "$group" "$SERVICE_USER"
    else
        echo "install.sh: group $group does not exist (is this Raspberry Pi OS?)" >&2
    fi
done

say "code in $PREFIX (Python venv; lgpio and spidev from the system packages)"
run install -d -m 0755 "$PREFIX"
run python3 -m venv --system-site-packages "$PREFIX/venv"
run "$PREFIX/venv/bin/pip" install --quiet --upgrade pip
run "$PREFIX/venv/bin/pip" install --quiet "$SRC"
run rm -rf "$PREFIX/src"
run install -d -m 0755 "$PREFIX/src/docs"
run install -m 0644 "$SRC/docs/companion.example.toml" "$PREFIX/src/docs/"

say "configuration in $ETC (an existing file is kept)"
run install -d -m 0755 "$ETC"
if [ ! -f "$ETC/companion.toml" ]; then
    run install -m 0644 "$SRC/docs/companion.example.toml" "$ETC/companion.toml"
fi
if [ ! -f "$ETC/pins.toml" ]; then
    run install -m 0644 "$SRC/hardware/pins.toml" "$ETC/pins.toml"
fi

say "data directory $DATA"
run install -d -m 0750 -o "$SERVICE_USER" -g "$SERVICE_USER" "$DATA"

say "udev rule of the Pico (/dev/companion-pico)"
run install -m 0644 "$SRC/systemd/99-companion-pico.rules" /etc/udev/rules.d/
run udevadm control --reload
run udevadm trigger --subsystem-match=tty

say "the configuration, as the service will read it"
if [ "$DRY_RUN" = 1 ]; then
    printf '+ runuser -u %s -- %s\n' "$SERVICE_USER" \
        "$PREFIX/venv/bin/python -m companion.service config check --config $ETC/companion.toml"
elif ! runuser -u "$SERVICE_USER" -- "$PREFIX/venv/bin/python" -m companion.service \
        config check --config "$ETC/companion.toml"; then
    echo "install.sh: fix $ETC/companion.toml (see above), then: sudo systemctl restart companion" >&2
fi

say "systemd unit"
run install -m 0644 "$SRC/systemd/companion.service" /etc/systemd/system/companion.service
run systemctl daemon-reload
run systemctl enable companion.service

if [ "$REBOOT" = 1 ]; then
    say "done: reboot to enable I2C/SPI and start the companion (sudo reboot)"
else
    run systemctl restart companion.service
    say "done: journalctl -u companion -f shows the service"
fi
