#!/usr/bin/env bash
# Installs the test runners of README "Testing your app" for test/recipes/run.ts: vitest, jest and
# @playwright/test from npm into a folder outside the repository (never project dependencies).
# Playwright's own browser download is skipped: the recipe runs in Debian's Chromium. A runner
# that cannot be installed is reported here and skipped, with its reason, by run.ts.
set -uo pipefail

SCRATCH_DIR="${RECIPES_SCRATCH_DIR:-${HOME:-/tmp}/.cache/local-calendar-emulator/recipes}"
NPM_PACKAGES=(vitest@5.1.0 jest@30.5.2 @playwright/test@1.65.1)

if [ ! -f "$SCRATCH_DIR/node_modules/vitest/package.json" ] || [ ! -f "$SCRATCH_DIR/node_modules/jest/package.json" ] \
  || [ ! -f "$SCRATCH_DIR/node_modules/@playwright/test/package.json" ]; then
  mkdir -p "$SCRATCH_DIR"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --prefix "$SCRATCH_DIR" --no-save --no-audit --no-fund --loglevel=error "${NPM_PACKAGES[@]}" >/dev/null \
    || echo "npm could not install ${NPM_PACKAGES[*]}; the recipes of the runners missing will be skipped"
fi
exit 0
