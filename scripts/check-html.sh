#!/bin/sh
# check-html.sh renders the comparison HTML export of the bundled samples in
# headless Chromium and checks that it rendered: the page exists, carries its
# inline SVG charts and no external assets, and the screenshot is a
# non-trivial PNG. Usage: scripts/check-html.sh [OUTDIR]
# Needs chromium (Debian: apt-get install -y chromium).
set -eu
out=${1:-$(mktemp -d)}
mkdir -p "$out"
root=$(cd "$(dirname "$0")/.." && pwd)
(cd "$root" && go build -o "$out/faultlens" .)
set +e
(cd "$out" && ./faultlens compare --baseline baseline --candidate candidate --format html --out report.html 2>/dev/null)
code=$?
set -e
[ "$code" -eq 1 ] || { echo "check-html: compare exited $code, want 1 (gates fail on the samples)"; exit 1; }
html="$out/report.html"
[ -s "$html" ] || { echo "check-html: $html missing or empty"; exit 1; }
svgs=$(grep -o '<svg' "$html" | wc -l)
[ "$svgs" -ge 4 ] || { echo "check-html: want 4 inline SVG charts, found $svgs"; exit 1; }
if grep -Eq '(src|href)="(https?:)?//' "$html"; then
	echo "check-html: page references external assets"; exit 1
fi
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$browser" ] || { echo "check-html: chromium not found (apt-get install -y chromium)"; exit 1; }
png="$out/report.png"
rm -f "$png"
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,1600 \
	--screenshot="$png" "file://$html" >/dev/null 2>&1 || true
[ -f "$png" ] || { echo "check-html: no screenshot written"; exit 1; }
size=$(wc -c <"$png")
[ "$size" -gt 20000 ] || { echo "check-html: screenshot only $size bytes"; exit 1; }
echo "check-html: ok: $html ($svgs charts), screenshot $png ($size bytes)"
