#!/usr/bin/env bash
# Reproduce docs/benchmarks.md: the machine, then one "faultlens bench" run
# (default 1M events; pass --events N and any global flag such as
# --memory-limit 2GB). Also runs the package benchmarks when BENCH_GO=1.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "nproc: $(nproc)"
free -g
uptime
go run . bench "$@"
uptime
if [[ "${BENCH_GO:-}" == 1 ]]; then
	FAULTLENS_BENCH_EVENTS=1000000 go test ./ingest/ -run '^$' -bench BenchmarkIngestJSONL -benchtime 1x -timeout 30m
	FAULTLENS_BENCH_RUNS=35000 go test ./metrics/ -run '^$' -bench 'BenchmarkReport|BenchmarkUIViews' -benchtime 3x -timeout 30m
fi
