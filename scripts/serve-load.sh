#!/usr/bin/env bash
# Throughput and latency of `faultlens serve` under concurrent exporters:
# builds faultlens and the load generator (serve/loadgen), and for each
# client count starts a receiver on a fresh database on a free loopback
# port, sends gzip protobuf requests of 105 spans from that many clients,
# SIGTERMs it, checks that every acknowledged span is stored (each span of
# these runs is one event), and prints
# the generator's line, the receiver's peak RSS and the load average.
#
#   scripts/serve-load.sh                 # 1, 4, 16 and 64 clients, 40 requests each
#   CLIENTS="16" REQUESTS=60 scripts/serve-load.sh
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
go build -o "$tmp/faultlens" .
go build -o "$tmp/loadgen" ./serve/loadgen
for clients in ${CLIENTS:-1 4 16 64}; do
	db="$tmp/load-$clients.duckdb"
	"$tmp/faultlens" serve --db "$db" --listen 127.0.0.1:0 ${SERVE_FLAGS:-} >"$tmp/serve.log" 2>&1 &
	pid=$!
	url=
	for _ in $(seq 100); do
		url=$(grep -o 'http://[^ ]*/v1/traces' "$tmp/serve.log" || true)
		[ -n "$url" ] && break
		sleep 0.1
	done
	[ -n "$url" ] || { cat "$tmp/serve.log"; echo "serve did not start" >&2; exit 1; }
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	out=$("$tmp/loadgen" -url "$url" -clients "$clients" -requests "${REQUESTS:-40}" -duration "${DURATION:-2m}")
	rss=$(awk '/VmHWM/ {printf "%.0f MiB", $2/1024}' "/proc/$pid/status")
	kill -TERM "$pid"
	wait "$pid"
	pid=
	acked=$(sed -n 's/.*acknowledged (\([0-9]*\) spans).*/\1/p' <<<"$out")
	"$tmp/faultlens" export --db "$db" --format jsonl --out "$tmp/export.jsonl" >/dev/null
	stored=$(wc -l <"$tmp/export.jsonl")
	echo "$out; peak RSS $rss; load average $load; events stored $stored (acknowledged spans $acked)"
	[ "$stored" -ge "$acked" ] || { echo "acknowledged spans lost" >&2; exit 1; }
done
