#!/bin/sh
# check-html.sh renders the three HTML exports of the bundled samples in
# headless Chromium and checks that each rendered: the page exists, carries
# the expected number of inline SVG charts and no external assets, and its
# screenshot is a non-trivial PNG.
#   compare.html  faultlens compare --format html (baseline vs candidate)
#   report.html   faultlens report --format html
#   history.html  faultlens history --format html, over a database holding
#                 the two samples as two nights (the candidate moved a day on)
# Usage: scripts/check-html.sh [OUTDIR]   (the PNGs are left in OUTDIR)
# Needs chromium (Debian: apt-get install -y chromium).
set -eu
out=${1:-$(mktemp -d)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
(cd "$root" && go build -o "$out/faultlens" .)
fl="$out/faultlens"

fail() { echo "check-html: $*"; exit 1; }

# compare exits 1 on the samples: the candidate fails its gates.
set +e
(cd "$out" && "$fl" compare --baseline baseline --candidate candidate --format html --out compare.html 2>/dev/null)
code=$?
set -e
[ "$code" -eq 1 ] || fail "compare exited $code, want 1 (gates fail on the samples)"

(cd "$out" && "$fl" report --format html >report.html 2>/dev/null) || fail "report failed"

rm -f "$out/nights.db"
mkdir -p "$out/nights"
cp "$root/sample-traces/baseline.jsonl" "$out/nights/baseline.jsonl"
# Every date a day on (some timestamps carry a -05:00 offset, hence 27th).
sed -e 's/2026-11-28T/2026-11-29T/g' -e 's/2026-11-27T/2026-11-28T/g' \
	"$root/sample-traces/candidate.jsonl" >"$out/nights/candidate.jsonl"
"$fl" ingest --db "$out/nights.db" "$out/nights/baseline.jsonl" "$out/nights/candidate.jsonl" >/dev/null 2>&1 || fail "ingest failed"
"$fl" history --db "$out/nights.db" --format html --out "$out/history.html" 2>/dev/null || fail "history failed"
grep -q '2026-11-29' "$out/history.html" || fail "history.html does not show the second night"
grep -q 'id="verdict"' "$out/compare.html" || fail "compare.html has no verdict banner"

browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$browser" ] || fail "chromium not found (apt-get install -y chromium)"

# check NAME SVGS: NAME.html must hold exactly SVGS charts, reference
# nothing external, and render to a non-trivial screenshot NAME.png.
check() {
	html="$out/$1.html"
	png="$out/$1.png"
	[ -s "$html" ] || fail "$html missing or empty"
	svgs=$(grep -o '<svg' "$html" | wc -l)
	[ "$svgs" -eq "$2" ] || fail "$1.html: want $2 inline SVG charts, found $svgs"
	if grep -Eiq '(src|href|url)[=(]"?(https?:)?//' "$html" || grep -Eiq '<(script|link|img|iframe)' "$html"; then
		fail "$1.html references external assets or scripts"
	fi
	rm -f "$png"
	profile=$(mktemp -d)
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
		--hide-scrollbars --screenshot="$png" --window-size=1280,2400 "file://$html" >/dev/null 2>&1 || true
	rm -rf "$profile"
	[ -f "$png" ] || fail "$1: no screenshot written"
	size=$(wc -c <"$png")
	[ "$size" -gt 20000 ] || fail "$1: screenshot only $size bytes"
	echo "check-html: ok: $html ($svgs charts), screenshot $png ($size bytes)"
}

check compare 4
check report 14   # 7 per suite: funnel, claimed, retries, recovery, grade, latency p50, p95
check history 20  # one line chart per rate metric (20 rates)
