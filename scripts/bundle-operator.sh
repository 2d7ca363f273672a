#!/usr/bin/env bash
# Writes the operator's production bundle to <dir> (created if missing): dist/keyward.js, the operator and every
# dependency in one ES module (packages/operator/scripts/bundle.ts), its source map, the licences of the packages it
# holds, and a package.json with the version `keyward version` prints. deploy/Dockerfile ships exactly this;
# `node <dir>/dist/keyward.js` runs it without the workspace or any node_modules.
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: scripts/bundle-operator.sh <dir>" >&2
  exit 2
fi
out=$(realpath -m "$1")
cd "$(dirname "$0")/.."

# --force: tsc -b trusts each package's tsbuildinfo, so a deleted dist/ would not be emitted again, and the
# bundle takes every workspace package's dist/ as it is.
pnpm exec tsc -b --force
pnpm --silent --filter @keyward/operator bundle
mkdir -p "$out/dist"
cp packages/operator/dist/keyward.js packages/operator/dist/keyward.js.map packages/operator/dist/keyward.js.licenses.txt "$out/dist/"
# "type": "module" makes Node load dist/keyward.js as the ES module it is.
node -e '
  const { name, version, description, license } = require("./packages/operator/package.json");
  process.stdout.write(JSON.stringify({ name, version, description, license, type: "module", private: true }, null, 2) + "\n");
' > "$out/package.json"
