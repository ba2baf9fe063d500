#!/usr/bin/env bash
# End-to-end check of sharded receivers behind an OpenTelemetry Collector:
# builds a Collector with the collector builder from the Go module proxy
# (scripts/collector/builder-config.yaml: OTLP receiver, routing connector,
# OTLP/HTTP exporter, release v0.148.0), starts two `faultlens serve`
# shards and a third receiver on its own, sends the same runs (the load
# generator, serve/loadgen) through the Collector, which routes each span
# by its trace id to one shard, and straight to the single receiver, and
# checks that `report --db shard0 --db shard1` is byte-identical to the
# report of the single database and that both shards received runs.
#
#   scripts/collector-e2e.sh          # needs go and the module proxy; the build goes to a temp dir
#   OTELCOL=/path/to/faultlens-otelcol scripts/collector-e2e.sh   # reuse a build
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT

go build -o "$tmp/faultlens" .
go build -o "$tmp/loadgen" ./serve/loadgen
otelcol=${OTELCOL:-}
if [ -z "$otelcol" ]; then
	sed "s|OUTPUT_PATH|$tmp/otelcol|" scripts/collector/builder-config.yaml >"$tmp/builder-config.yaml"
	(cd "$tmp" && go run go.opentelemetry.io/collector/cmd/builder@v0.148.0 --config "$tmp/builder-config.yaml" >"$tmp/builder.log" 2>&1) ||
		{ tail -n 30 "$tmp/builder.log"; echo "collector build failed" >&2; exit 1; }
	otelcol=$tmp/otelcol/faultlens-otelcol
fi

# serve DB LOG: start a receiver on a free port; sets $url.
serve() {
	"$tmp/faultlens" serve --db "$1" --listen 127.0.0.1:0 --threads 2 >"$2" 2>&1 &
	pids+=($!)
	url=
	for _ in $(seq 100); do
		url=$(grep -o 'http://[^ ]*/v1/traces' "$2" || true)
		[ -n "$url" ] && return 0
		sleep 0.1
	done
	cat "$2"
	echo "serve did not start" >&2
	exit 1
}
serve "$tmp/shard0.duckdb" "$tmp/shard0.log"
shard0=$url
serve "$tmp/shard1.duckdb" "$tmp/shard1.log"
shard1=$url
serve "$tmp/single.duckdb" "$tmp/single.log"
single=$url

# A port for the Collector's receiver, picked at random in a range that
# the kernel does not hand out for its own ephemeral ports.
port=$((20000 + RANDOM % 12000))
sed -e "s|COLLECTOR_PORT|$port|" -e "s|SHARD0_URL|$shard0|" -e "s|SHARD1_URL|$shard1|" \
	scripts/collector/otelcol.yaml >"$tmp/otelcol.yaml"
"$otelcol" --config "file:$tmp/otelcol.yaml" >"$tmp/otelcol.log" 2>&1 &
collector=$!
pids+=($collector)
for _ in $(seq 100); do
	grep -q "Everything is ready" "$tmp/otelcol.log" && break
	sleep 0.2
done
grep -q "Everything is ready" "$tmp/otelcol.log" || { cat "$tmp/otelcol.log"; echo "collector did not start" >&2; exit 1; }

"$tmp/loadgen" -url "http://127.0.0.1:$port/v1/traces" -clients 4 -requests 5 -runs 10
"$tmp/loadgen" -url "$single" -clients 4 -requests 5 -runs 10

# The Collector flushes what it holds when it stops; then the receivers.
kill -TERM "$collector"
wait "$collector" || true
for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
pids=()

for s in shard0 shard1; do
	n=$(grep -c 'events stored\|committed in' "$tmp/$s.log" || true)
	[ "$n" -gt 0 ] || { cat "$tmp/$s.log"; echo "$s received nothing: the routing did not split" >&2; exit 1; }
	echo "$s: $n requests"
done
"$tmp/faultlens" report --db "$tmp/shard0.duckdb" --db "$tmp/shard1.duckdb" --format json >"$tmp/sharded.json"
"$tmp/faultlens" report --db "$tmp/single.duckdb" --format json >"$tmp/single.json"
diff -u "$tmp/single.json" "$tmp/sharded.json"
grep -q '"runs": 200' "$tmp/single.json" || { head -n 30 "$tmp/single.json"; echo "the single database lacks runs" >&2; exit 1; }
echo "collector e2e: the report of two shards behind the Collector equals the single database's (200 runs)"
