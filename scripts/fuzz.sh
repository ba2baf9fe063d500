#!/usr/bin/env bash
# Runs every fuzz target for a while (not part of CI: go test runs only their
# seed corpora there). A crasher is written by Go under the package's
# testdata/fuzz/<Target>/ directory; commit it, and it becomes a regression
# test that every `go test ./...` runs.
#
#   scripts/fuzz.sh            # 3 minutes per target
#   FUZZTIME=30s scripts/fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/.."
t="${FUZZTIME:-3m}"
# -fuzzminimizetime keeps Go from spending the whole budget shrinking the
# large seed inputs.
run() { echo "== $1 $2 ($t)"; go test "$1" -run '^$' -fuzz "^$2\$" -fuzztime "$t" -fuzzminimizetime 20x; }
run ./ingest FuzzIngestLine
run ./ingest FuzzArrowReader
run ./otlp FuzzConvert
run ./serve FuzzHandler
run ./textsafe FuzzTerminal
run ./cli FuzzClassify
run ./ui FuzzMetricKeys
echo "no crashers"
