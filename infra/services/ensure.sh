#!/usr/bin/env bash
# Makes sure the services the integration and end-to-end tests need are up, and the browser the
# HTML report's test drives is installed; `npm test` runs it before vitest. The scripts are
# idempotent and return in well under a second when all is there already.
# VERDICT_SKIP_SERVICES=1 skips it (e.g. services run elsewhere).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ "${VERDICT_SKIP_SERVICES:-}" == "1" ]]; then
  echo "services: skipped (VERDICT_SKIP_SERVICES=1)" >&2
  exit 0
fi
bash "$HERE/chromium.sh"
bash "$HERE/postgres.sh"
bash "$HERE/kafka.sh" start
