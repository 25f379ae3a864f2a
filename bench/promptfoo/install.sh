#!/usr/bin/env bash
# Installs promptfoo 0.120.0 (the scale reference of the platform bench: issue #6 gives its time
# for the same run shape) into .build/promptfoo, outside the project's dependencies: it pulls
# ~550 packages and compiles better-sqlite3 (about 3 minutes here), which neither the tests nor
# CI need. `npm run bench -- platform` runs it as a baseline in the same run when it is there.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
dir=.build/promptfoo
mkdir -p "$dir"
cd "$dir"
[[ -f package.json ]] || echo '{ "name": "verdict-bench-promptfoo", "private": true }' > package.json
npm install --no-audit --no-fund --no-save promptfoo@0.120.0
# 0.120.0's package looks for its database migrations in the package root, but ships them under
# dist/: without this link every `promptfoo eval` fails with "Can't find meta/_journal.json".
ln -sfn dist/drizzle node_modules/promptfoo/drizzle
echo "promptfoo $(node -p "JSON.parse(require(\"fs\").readFileSync(\"node_modules/promptfoo/package.json\", \"utf8\")).version") installed in $dir"
