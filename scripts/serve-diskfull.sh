#!/usr/bin/env bash
# 0 acknowledged spans lost when the disk fills under 64 clients: puts the
# database of `faultlens serve` on a 20 MiB tmpfs (needs root to mount it),
# sends gzip protobuf requests of 105 spans from 64 clients until the file
# system is full and requests are answered 503, then stops the receiver,
# copies the database off the full file system and checks that it holds
# every acknowledged span (each span of these runs is one event).
#
#   sudo scripts/serve-diskfull.sh
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
mnt="$tmp/full"
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	umount "$mnt" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$mnt"
mount -t tmpfs -o size=20m tmpfs "$mnt" || { echo "cannot mount a tmpfs (run as root): skipped" >&2; exit 0; }
go build -o "$tmp/faultlens" .
go build -o "$tmp/loadgen" ./serve/loadgen
"$tmp/faultlens" serve --db "$mnt/d.duckdb" --listen 127.0.0.1:0 >"$tmp/serve.log" 2>&1 &
pid=$!
url=
for _ in $(seq 100); do
	url=$(grep -o 'http://[^ ]*/v1/traces' "$tmp/serve.log" || true)
	[ -n "$url" ] && break
	sleep 0.1
done
[ -n "$url" ] || { cat "$tmp/serve.log"; echo "serve did not start" >&2; exit 1; }
out=$("$tmp/loadgen" -url "$url" -clients 64 -requests 20 -retries 3 -duration 4m 2>/dev/null || true)
echo "$out"
kill -TERM "$pid"
wait "$pid" || true # its shutdown refresh fails on the full disk
pid=
grep -q "No space left on device" "$tmp/serve.log" || { echo "the disk never filled: the check proves nothing" >&2; exit 1; }
mkdir "$tmp/copy"
cp "$mnt"/d.duckdb* "$tmp/copy/"
"$tmp/faultlens" export --db "$tmp/copy/d.duckdb" --format jsonl --out "$tmp/copy/e.jsonl" >/dev/null
stored=$(wc -l <"$tmp/copy/e.jsonl")
acked=$(sed -n 's/.*acknowledged (\([0-9]*\) spans).*/\1/p' <<<"$out")
echo "disk full: $acked spans acknowledged, $stored events stored"
[ "$stored" -ge "$acked" ] || { echo "acknowledged spans lost" >&2; exit 1; }
