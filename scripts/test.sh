#!/usr/bin/env bash
# `npm test`: lint, format, types, migration drift, build, unit + integration tests (embedded database, and
# PostgreSQL too when DATABASE_URL names one), then the browser suite against the production build.
set -euo pipefail
cd "$(dirname "$0")/.."
export CHECKPOINT_DISABLE=1 NEXT_TELEMETRY_DISABLED=1 PRISMA_HIDE_UPDATE_MESSAGE=1

step() { printf '\n=== %s\n' "$*"; }

step "generate Prisma client"
node scripts/generate.mjs >/dev/null
step "lint"
npx eslint . --max-warnings=0
step "format"
npx prettier --check . --log-level=warn
step "types"
npx tsc --noEmit
step "migrations match schema.prisma"
npx tsx scripts/migrations.ts check
step "production build"
npx next build >/tmp/relay-build.log 2>&1 || { tail -50 /tmp/relay-build.log; exit 1; }

pg_url=""
case "${DATABASE_URL:-}" in postgres://* | postgresql://*) pg_url="$DATABASE_URL" ;; esac

step "unit and integration tests (embedded database)"
env -u DATABASE_URL npx vitest run
if [ -n "$pg_url" ]; then
  step "unit and integration tests (PostgreSQL)"
  DATABASE_URL="$pg_url" npx vitest run
fi
step "browser tests (Chromium)"
npx playwright test
