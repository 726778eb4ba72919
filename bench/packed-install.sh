#!/usr/bin/env bash
# The README's install path, for real: pack this checkout, install the tarball into an empty
# project from the npm registry (dependencies included), and run the README's first commands
# from there with npx, then its CI recipe. Prints how long each step took. Needs the registry;
# takes minutes (npm downloads the dependencies and may compile better-sqlite3).
#
#   bash bench/packed-install.sh [WORKDIR]      # default: a new directory under $TMPDIR
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d "${TMPDIR:-/tmp}/cc-packed-install-XXXXXX")}
mkdir -p "$work/your-project"
step() { local t0=$SECONDS rc=0; "$@" || rc=$?; echo "step: ${*:0:80} ($((SECONDS - t0)) s, exit $rc)" >&2; return $rc; }

version=$(node -p "require('$repo/package.json').version")
(cd "$repo" && step npm pack --pack-destination "$work" >/dev/null)
cd "$work/your-project"
npm init -y >/dev/null
step npm install "$work/canton-conformance-$version.tgz" --no-audit --no-fund
step npx canton-conformance --version
step npx canton-conformance list >/dev/null

# The README's CI recipe, as printed, on a free port (the whole suite runs: minutes).
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
recipe=$(awk '/<!-- ci-recipe/{f=1;next} f&&/^```sh/{next} f&&/^```/{exit} f' "$repo/README.md" | sed "s/7575/$port/g")
set +e
step bash -c "$recipe"
status=$?
set -e
echo "CI recipe exit: $status" >&2
# npx has exited; the server under it stops as soon as it notices (well under a second).
for i in $(seq 50); do
  pgrep -f "your-project/node_modules/.bin/canton-conformance serve" >/dev/null || break
  sleep 0.2
done
if pgrep -f "your-project/node_modules/.bin/canton-conformance serve" >/dev/null; then
  echo "FAIL: a server is still running 10 s after the CI recipe" >&2
  exit 1
fi
echo "no process left; reports in $work/your-project/reports" >&2
exit "$status"
