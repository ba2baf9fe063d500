#!/usr/bin/env bash
# The project's test command (README: "Run the tests").
# go vet, then every package's tests. Fuzz targets run their seed corpora
# only; scripts/fuzz.sh runs them for real.
set -euo pipefail
cd "$(dirname "$0")/.."
go vet ./...
# go.mod lists exactly what the code imports (direct ones not // indirect).
go mod tidy -diff
# golangci-lint (.golangci.yml: errcheck, govet, staticcheck, unused,
# ineffassign, revive, gofmt), pinned, fetched through the module proxy like
# any module: about 1 min to build and 1 min to lint cold, seconds warm.
# --allow-serial-runners: a second lint of the same tree (two CI jobs, an
# editor) waits for the first instead of failing on its lock.
go run github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v2.15.0 run --allow-serial-runners ./...
# With node and npm at hand, install the OpenTelemetry JS exporters that
# TestServeOTelJS sends with (pinned by the lockfile); without them that
# test skips and says so.
if command -v node >/dev/null && command -v npm >/dev/null; then
	(cd scripts/otel-serve-e2e && npm ci --no-audit --no-fund --loglevel=error)
	# The MCP reference servers TestReferenceServers runs with and without
	# faultlens proxy in between.
	(cd scripts/mcp-servers && npm ci --no-audit --no-fund --loglevel=error)
fi
# The agent frameworks and MCP servers TestProxyAgents runs (pinned by the
# lockfile); without them that test skips and says so.
if command -v node >/dev/null && command -v npm >/dev/null; then
	(cd scripts/proxy-agents && npm ci --no-audit --no-fund --loglevel=error)
fi
go test -count=1 -timeout 25m ./...
# kill -9 during ingest and during the cache refresh, then re-run: the
# report must equal a clean ingest (small size; see scripts/crash.sh).
# A fixed SEED: the same kill moments on every run (see scripts/crash.sh).
SEED=${CRASH_SEED:-24} scripts/crash.sh 3 150 2
