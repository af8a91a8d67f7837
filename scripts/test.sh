#!/usr/bin/env bash
# `npm test`: lint, import boundaries, format, types, migration drift, build, unit + integration tests (embedded
# database, and PostgreSQL too when DATABASE_URL names one), then the browser suite against the production build.
set -euo pipefail
cd "$(dirname "$0")/.."
export CHECKPOINT_DISABLE=1 NEXT_TELEMETRY_DISABLED=1 PRISMA_HIDE_UPDATE_MESSAGE=1

# Each step prints the seconds since the start, so a CI log shows where its time went.
started=$SECONDS
step() { printf '\n=== [%ss] %s\n' "$((SECONDS - started))" "$*"; }

# RELAY_TEST_DB_ONLY=1 (CI's second pass, on the commit its first pass just checked): only what depends on the
# database: the PostgreSQL tests and the browser suite, on the build already made.
db_only="${RELAY_TEST_DB_ONLY:-0}"

# Runs name/command pairs side by side, each one's output kept and shown after it ends; fails if any failed.
together() {
  local dir status pids=() names=() failed=0
  dir=$(mktemp -d)
  while [ $# -gt 1 ]; do
    bash -c "$2" >"$dir/$1.log" 2>&1 &
    pids+=($!)
    names+=("$1")
    shift 2
  done
  for i in "${!pids[@]}"; do
    if wait "${pids[$i]}"; then status=ok; else status=FAILED failed=1; fi
    printf -- '--- %s: %s\n' "${names[$i]}" "$status"
    cat "$dir/${names[$i]}.log"
  done
  rm -rf "$dir"
  return "$failed"
}

step "generate Prisma client"
node scripts/generate.mjs >/dev/null
if [ "$db_only" != 1 ]; then
  # ESLint (type-aware) and tsc each build the program on one core: side by side they take the time of the longer.
  step "static checks: lint | import boundaries (folder cycles), format, types, migrations match schema.prisma"
  together lint "npx eslint . --max-warnings=0" \
    checks "npm run --silent boundaries && npx prettier --check . --log-level=warn && npx tsc --noEmit && npx tsx scripts/migrations.ts check"
fi
step "messenger bundle"
node scripts/build-messenger.mjs
if [ "$db_only" != 1 ] || [ ! -f "${NEXT_DIST_DIR:-.next}/BUILD_ID" ]; then
  step "production build"
  npx next build >/tmp/relay-build.log 2>&1 || { tail -50 /tmp/relay-build.log; exit 1; }
fi

pg_url=""
case "${DATABASE_URL:-}" in postgres://* | postgresql://*) pg_url="$DATABASE_URL" ;; esac

if [ "$db_only" != 1 ] || [ -z "$pg_url" ]; then
  step "unit and integration tests (embedded database)"
  env -u DATABASE_URL npx vitest run
fi
if [ -n "$pg_url" ]; then
  step "unit and integration tests (PostgreSQL)"
  DATABASE_URL="$pg_url" npx vitest run
fi
if [ "$db_only" = 1 ]; then
  # The second pass's browser run keeps the specs where PostgreSQL and Redis change what happens: operators and
  # visitors live together (the socket.io Redis adapter), concurrent sends and background jobs (transactions that
  # PGlite runs one at a time), and the panel long-polling through nginx in front of three instances. The rest of
  # the suite is the same panel on the same API, and ran in the first pass; running it all twice took CI to 44
  # minutes (docs/decisions.md, Testing).
  step "browser tests (Chromium, PostgreSQL + Redis: live and concurrent flows)"
  npx playwright test e2e/inbox.spec.ts e2e/inbox-send.spec.ts e2e/messenger-inbox.spec.ts \
    e2e/bulk-actions.spec.ts e2e/notifications.spec.ts e2e/availability.spec.ts e2e/cluster-polling.spec.ts
else
  step "browser tests (Chromium)"
  npx playwright test
fi
step "done"
