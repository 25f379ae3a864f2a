#!/usr/bin/env bash
# Installs Debian's Chromium when it is missing: the HTML report's browser test drives it through
# playwright-core. Uses apt-get as root, or through `sudo -n`; says what to do when neither works.
# VERDICT_CHROMIUM pointing at another browser skips the install.
set -euo pipefail

if [[ -n "${VERDICT_CHROMIUM:-}" || -x /usr/bin/chromium ]]; then exit 0; fi
if ! command -v apt-get > /dev/null; then
  echo "chromium: /usr/bin/chromium is missing and apt-get is not available; install Chromium and set VERDICT_CHROMIUM" >&2
  exit 1
fi
sudo=()
[[ "$(id -u)" == 0 ]] || sudo=(sudo -n)
echo "chromium: installing Debian's chromium (apt-get)" >&2
"${sudo[@]}" apt-get update -q
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q chromium
