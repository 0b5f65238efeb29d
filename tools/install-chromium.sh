#!/bin/sh
# Debian's Chromium for the web page's browser tests (tests/browser.py), unless there is one already.
# CI runs as root; elsewhere apt-get needs sudo. AMBUSH_CHROMIUM names another Chromium and skips the install.
set -eu
if [ -n "${AMBUSH_CHROMIUM:-}" ] || command -v chromium >/dev/null || command -v chromium-browser >/dev/null; then
    exit 0
fi
if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
$SUDO apt-get update
$SUDO apt-get install -y chromium
