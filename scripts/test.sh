#!/usr/bin/env bash
# `npm test`: every test suite. Installs what it needs on a fresh Debian machine (chromium, postgresql, nginx),
# starts a throwaway PostgreSQL on loopback, builds Faultline with and without a base path, and runs:
#   1. typecheck and lint (ESLint, Prettier, import circles, file sizes), beside the core, protocol, storage, intake and mail suites on
#   SQLite and PostgreSQL  2. the first-load JavaScript budget of the build, and the bad-input corpus against it
#   (tests/hostile), beside two nodes of the build on PostgreSQL behind nginx (tests/cluster), the check of the route
#   types the build generated, the /monitor build and the node suites of BESIDE_CORPUS
#   3. Playwright (API + Chromium) on both builds
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step says how far into the run it starts (seconds), so a slow step shows in CI's log.
step() { printf '\n== [%ss] %s\n' "$SECONDS" "$*"; }

if [ ! -x /usr/bin/chromium ]; then
  step "installing Debian's chromium (browser tests)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
if [ ! -x /usr/sbin/nginx ]; then
  step "installing Debian's nginx (the reverse-proxy example is checked with nginx -t)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
fi
if ! /usr/bin/python3 -c "import sentry_sdk" 2>/dev/null; then
  step "installing Debian's python3-sentry-sdk (a real Python SDK for the intake tests)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-sentry-sdk >/dev/null
fi
if ! command -v xz >/dev/null || ! command -v zstd >/dev/null || ! command -v bzip2 >/dev/null; then
  step "installing Debian's xz-utils, zstd and bzip2 (compressed minidumps in the intake tests are made with them)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq xz-utils zstd bzip2 >/dev/null
fi
if [ ! -d node_modules ]; then
  step "installing npm dependencies"
  npm ci --no-audit --no-fund
fi

step "starting PostgreSQL on loopback"
FAULTLINE_TEST_PG_URL="$(scripts/pg.sh start | tail -n 1)"
export FAULTLINE_TEST_PG_URL
# On the way out (a failed step included), the steps still running in the background stop too, before PostgreSQL.
trap 'kill $(jobs -p) 2>/dev/null || true; scripts/pg.sh stop >/dev/null 2>&1 || true' EXIT

# Node suites that run beside the corpus (step 2) instead of in the first step. The first step keeps both cores busy
# (the suites, two files at a time, 88 % of the CPU with the typecheck and lint); the corpus leaves one idle while it
# waits for memory to come back after each storm (about 50 % of the CPU over its 350 s). These are long files of the
# first step that wait for nothing the digest does: beside the corpus and the /monitor build, the digest thread (at
# nice 10) gets so little of a core that a file waiting on it for seconds waits minutes (the dead letters, tried here,
# waited more than 30 s for a record that hangs to be noticed). Measured alone on this 2-core machine: migrations on
# PostgreSQL 37 s (a fifth of it in Node), doctor 23 s, sessions 13 s, vacuum 15 s, two-factor 12 s, permissions 11 s,
# alerts 10 s.
BESIDE_CORPUS=(
  tests/storage/migrations.test.ts
  tests/ops/doctor.test.ts
  tests/core/sessions.test.ts
  tests/ops/vacuum.test.ts
  tests/core/two-factor.test.ts
  tests/core/permissions.test.ts
  tests/digest/alerts.test.ts
)
first_suites=()
for f in tests/{core,protocol,storage,ingest,monitors,digest,notify,mail,scrub,ops}/*.test.ts; do
  [[ " ${BESIDE_CORPUS[*]} " == *" $f "* ]] || first_suites+=("$f")
done
# TAP for the log, and after it the files that took longest (scripts/test-file-times.mjs).
NODE_REPORTERS=(--test-reporter=tap --test-reporter-destination=stdout --test-reporter=./scripts/test-file-times.mjs --test-reporter-destination=stdout)

step "typecheck and lint (ESLint, Prettier, import circles, file sizes) in the background, and the core, protocol, storage, intake, notification and mail suites (SQLite and PostgreSQL)"
# tsc keeps one core 70 % busy; the suites use what it leaves.
typecheck_log="$(mktemp)"
npx tsc --noEmit >"$typecheck_log" 2>&1 &
typecheck_pid=$!
lint_log="$(mktemp)"
npm run -s lint >"$lint_log" 2>&1 &
lint_pid=$!
node --import tsx --test --test-concurrency=2 "${NODE_REPORTERS[@]}" "${first_suites[@]}"
step "typecheck's and lint's results"
if ! wait "$typecheck_pid"; then cat "$typecheck_log"; echo "typecheck failed: npx tsc --noEmit"; exit 1; fi
if ! wait "$lint_pid"; then cat "$lint_log"; echo "lint failed: npm run lint"; exit 1; fi
cat "$lint_log"

step "production build"
# The typecheck above covered the whole tree: the builds skip Next.js's own check of it (next.config.mjs), and the
# route types they generate are checked beside the corpus.
export FAULTLINE_BUILD_TYPECHECKED=1
npm run build
step "first-load JavaScript budget, and the bad-input corpus against the production build (SQLite and PostgreSQL); beside them, several nodes (two production nodes on one PostgreSQL behind nginx, tests/cluster), the production build under the base path /monitor and the node suites of BESIDE_CORPUS"
# The corpus waits for memory to come back after each storm, and the cluster test for its nodes (it kept the CPU 33 %
# busy alone). Its first storms, the build (into .next-monitor, apart from the .next the servers run) and the route
# types keep both cores busy; then the corpus mostly waits. So the node suites of BESIDE_CORPUS start once the build is
# done: started with it, they kept the CPU full for 200 s, the digest (at nice 10) drained the first storms 36 s late
# and the step took 452 s, where a run before had taken 341. Nothing of the corpus is timed but the digest's drain
# (within 5 minutes) and a valid event's visibility (within 1 s once drained); the cluster test waits for conditions,
# with deadlines, and asserts nothing about time.
monitor_log="$(mktemp)"
monitor_status="$(mktemp)"
beside_log="$(mktemp)"
(
  if FAULTLINE_BASE_PATH=/monitor FAULTLINE_DIST_DIR=.next-monitor node node_modules/next/dist/bin/next build >"$monitor_log" 2>&1; then
    echo ok >"$monitor_status"
  fi
  exec node --import tsx --test --test-concurrency=2 "${NODE_REPORTERS[@]}" "${BESIDE_CORPUS[@]}" >"$beside_log" 2>&1
) &
monitor_then_beside_pid=$!
cluster_log="$(mktemp)"
node --import tsx --test tests/cluster/*.test.ts >"$cluster_log" 2>&1 &
cluster_pid=$!
# The route types the build generated (.next/types: each page's and route's exports and props, which Next.js's own
# check covered), against the source: the typecheck above ran before they existed.
route_types_log="$(mktemp)"
npx tsc -p tsconfig.next-types.json --noEmit >"$route_types_log" 2>&1 &
route_types_pid=$!
node --import tsx --test tests/build/*.test.ts tests/hostile/*.test.ts
step "the build's route types (tsc -p tsconfig.next-types.json)"
if ! wait "$route_types_pid"; then cat "$route_types_log"; echo "the route types do not check: npx tsc -p tsconfig.next-types.json --noEmit"; exit 1; fi
step "several nodes' result (tests/cluster)"
if ! wait "$cluster_pid"; then cat "$cluster_log"; echo "the cluster test failed: node --import tsx --test tests/cluster/*.test.ts"; exit 1; fi
cat "$cluster_log"
step "the /monitor build's result, then the node suites beside the corpus (${BESIDE_CORPUS[*]})"
beside_ok=true
wait "$monitor_then_beside_pid" || beside_ok=false
if [ "$(cat "$monitor_status")" != ok ]; then cat "$monitor_log"; echo "the production build under /monitor failed"; exit 1; fi
tail -n 40 "$monitor_log"
if [ "$beside_ok" != true ]; then cat "$beside_log"; echo "a node suite beside the corpus failed: node --import tsx --test ${BESIDE_CORPUS[*]}"; exit 1; fi
cat "$beside_log"

step "Playwright: web API and Chromium, both builds"
npx playwright test
step "done"
