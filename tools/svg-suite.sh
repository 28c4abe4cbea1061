#!/usr/bin/env bash
# Prints the resvg suite's pass table per category (all seven categories, 821 cases) under the
# corpus README's rule, as docs/SVG.md keeps it. It runs the two corpus tests that render the suite
# (SVGSuiteCorpusTests: six categories; SVGTextCorpusTests: text) and joins their tables.
# Needs ../shared/corpora/resvg-suite and ../shared/corpora/fonts (or CA_RESVG_SUITE).
# Extra arguments go to `swift test` (e.g. -c release).
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift test "$@" --filter 'SVGSuiteCorpusTests|SVGTextCorpusTests' >"$log" 2>&1 || status=$?
awk '
  /cases passing per category/ { inTable = 1; next }
  inTable && /^[a-z-]+ +[0-9]+\/[0-9]+/ { if ($1 == "all") inTable = 0; else print $1, $2; next }
  { inTable = 0 }' "$log" | sort | awk '
  BEGIN { printf "%-16s %9s %7s\n", "category", "pass", "rate" }
  { split($2, pt, "/"); p += pt[1]; t += pt[2]
    printf "%-16s %4d/%-4d %6.1f%%\n", $1, pt[1], pt[2], 100 * pt[1] / pt[2] }
  END { if (t > 0) printf "%-16s %4d/%-4d %6.1f%%\n", "all", p, t, 100 * p / t }'
if [ "${status:-0}" != 0 ]; then
  echo "swift test failed (exit $status): a case changed against the expected-failures lists;" >&2
  grep -E "regression|now passes" "$log" | head -40 >&2 || true
  exit "$status"
fi
