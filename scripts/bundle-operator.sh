#!/usr/bin/env bash
# Writes the operator's self-contained production bundle to <dir> (which must be empty or missing): its dist/,
# package.json, and a node_modules with the production dependencies only, the workspace packages copied in.
# deploy/Dockerfile ships exactly this; `node <dir>/dist/main.js` runs it without the workspace.
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: scripts/bundle-operator.sh <dir>" >&2
  exit 2
fi
out=$(realpath -m "$1")
cd "$(dirname "$0")/.."

# --force: tsc -b trusts each package's tsbuildinfo, so a deleted dist/ would not be emitted again, and the
# bundle takes every workspace package's dist/ as it is.
pnpm build --force
# --legacy: pnpm 10 deploys from a workspace only with inject-workspace-packages=true (which would make every
# install copy the workspace packages instead of linking them); the legacy deploy copies them into the bundle.
pnpm --filter @keyward/operator deploy --prod --legacy "$out"
