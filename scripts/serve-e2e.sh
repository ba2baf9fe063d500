#!/usr/bin/env bash
# End-to-end check of `faultlens serve` with the real OpenTelemetry JS SDK
# exporters: starts the receiver on a free loopback port, sends agent runs
# with the protobuf exporter and with the JSON exporter (gzip), SIGTERMs the
# receiver, and checks that the report of the served database equals the
# report of the same spans (serialized by the SDK) read as a file.
#
#   scripts/serve-e2e.sh            # needs go, node >= 18.19 and npm (npm ci reaches the registry)
#
# `go test ./cli/ -run TestServeOTelJS` runs the same check once
# scripts/otel-serve-e2e/node_modules is installed (this script installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT

(cd scripts/otel-serve-e2e && npm ci --no-audit --no-fund --loglevel=error)
go build -o "$tmp/faultlens" .

"$tmp/faultlens" serve --db "$tmp/served.duckdb" --listen 127.0.0.1:0 >"$tmp/serve.log" 2>&1 &
pid=$!
url=
for _ in $(seq 100); do
	url=$(grep -o 'http://[^ ]*/v1/traces' "$tmp/serve.log" || true)
	[ -n "$url" ] && break
	sleep 0.1
done
[ -n "$url" ] || { cat "$tmp/serve.log"; echo "serve did not start" >&2; exit 1; }

node scripts/otel-serve-e2e/emit.mjs --url "$url" --protocol proto --first 0 --runs 3 --lines "$tmp/spans.jsonl"
node scripts/otel-serve-e2e/emit.mjs --url "$url" --protocol json --gzip --first 3 --runs 3 --lines "$tmp/spans.jsonl"

kill -TERM "$pid"
wait "$pid"
pid=
cat "$tmp/serve.log"

"$tmp/faultlens" report --db "$tmp/served.duckdb" --format json >"$tmp/served.json"
"$tmp/faultlens" report --format json "$tmp/spans.jsonl" >"$tmp/file.json" 2>/dev/null
diff -u "$tmp/file.json" "$tmp/served.json"
grep -q '"runs": 6' "$tmp/served.json" || { echo "expected 6 runs" >&2; exit 1; }
echo "serve-e2e: OK: 6 runs from the OpenTelemetry JS SDK exporters; served report equals the file route"
