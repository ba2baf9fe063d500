#!/usr/bin/env bash
# End-to-end check of the dashboard: build, start under tmux on the bundled
# samples at 160×45 and at 80×24, walk every view, and compare numbers on
# screen with `faultlens report --format json` on the same input.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/faultlens
go build -o "$bin" .
out=${TUI_E2E_OUT:-$(mktemp -d)}
mkdir -p "$out"
sess=fl-e2e-$$
json=$("$bin" report --format json 2>/dev/null)
num() { python3 -c "import json,sys; r=json.load(sys.stdin); s=[x for x in r['suites'] if x['suite']==sys.argv[1]][0]; print(s['metrics'][sys.argv[2]]['num'])" "$1" "$2" <<<"$json"; }
cleanup() { tmux kill-session -t "$sess" 2>/dev/null || true; }
trap cleanup EXIT
fail=0
size=
cap() { tmux capture-pane -p -t "$sess" > "$out/$size-$1.txt"; }
wait_for() { for _ in $(seq 1 150); do tmux capture-pane -p -t "$sess" | grep -q -- "$1" && return 0; sleep 0.2; done; echo "timeout waiting for $1 ($size)"; tmux capture-pane -p -t "$sess"; exit 1; }
check() { if grep -q -- "$2" "$out/$size-$1.txt"; then echo "ok   $size $1: $2"; else echo "FAIL $size $1: expected '$2'"; fail=1; fi; }
checknot() { if grep -q -- "$2" "$out/$size-$1.txt"; then echo "FAIL $size $1: unexpected '$2'"; fail=1; else echo "ok   $size $1: no '$2'"; fi; }
# status: the status line (the screen's last line) of a capture.
status() { grep -v "^ *$" "$out/$size-$1.txt" | tail -n 1; }
checkstatus() { if status "$1" | grep -q -- "$2"; then echo "ok   $size $1 status: $2"; else echo "FAIL $size $1 status: expected '$2' in '$(status "$1")'"; fail=1; fi; }
# esc alone (a key right after it would read as alt+key)
esc() { tmux send-keys -t "$sess" Escape; sleep 0.3; }
keys() { tmux send-keys -t "$sess" "$@"; }

masked=$(num candidate masked_success); claimed=$(num candidate claimed_completed); success=$(num candidate success)
inv=$(num candidate invalid_retry); brk=$(num candidate breaker_violation)
runs=$(python3 -c "import json,sys; r=json.load(sys.stdin); print(sum(s['runs'] for s in r['suites']))" <<<"$json")
masked_all=$(python3 -c "import json,sys; r=json.load(sys.stdin); print(sum(s['metrics']['masked_success']['num'] for s in r['suites']))" <<<"$json")

walk() {
	size=$1x$2
	tmux new-session -d -s "$sess" -x "$1" -y "$2" "cd $out && NO_COLOR=1 $bin ui"
	wait_for "MASKED SUCCESS"
	wait_for "gates FAILED"
	# The first screen opens with the candidate's verdict, at any size.
	cap 0-first
	check 0-first "^candidate candidate vs baseline baseline: 7 of 25 gates FAILED: masked_success"
	check 0-first "masked success $masked/$claimed"
	# On 80 columns the suites are stacked: the candidate is a page down.
	if [ "$1" -lt 100 ]; then keys G; sleep 0.3; fi
	cap 1-overview
	check 1-overview "MASKED SUCCESS *$masked/$claimed"
	check 1-overview "claimed completed *$claimed"
	check 1-overview "actually successful *$success"
	# The status line is the view's own keys, then the global ones.
	checkstatus 1-overview "j/↓ down  / search  ? help  q quit  e export"
	# g and G: the top and the bottom of a body that does not fit.
	if [ "$1" -lt 100 ]; then
		check 1-overview "(100%)"
		keys g; sleep 0.3; cap 1-overview-top
		check 1-overview-top "lines 1–"
	fi

	# Latency: the baseline beside the candidate, one scale per row.
	keys 2; wait_for "p95 bars"; cap 2-latency
	check 2-latency "candidate │░*█* *│ .*QUEUED > EXECUTED\|◀ Q>X"
	check 2-latency "baseline  │"
	keys f f f; sleep 0.3; cap 2-latency-dist
	check 2-latency-dist "lines [0-9]*–[0-9]* of [0-9]*"

	# Errors: chains and counters side by side.
	keys 3; wait_for "recovery chains"; cap 3-errors
	check 3-errors "invalid retries .* $inv/[0-9]* "
	check 3-errors "breaker .* $brk/[0-9]* "

	# Runs, quick filters, detail, esc back.
	keys 4; wait_for "sort run_id"; cap 4-runs
	check 4-runs "of $runs "
	checkstatus 4-runs "enter open  p pair with its twin  / filter (search)"
	# Ten quick page downs move ten pages (none lost while pages load), G
	# goes to the last run, g and Home back to the first.
	idx=$((10 * ($2 - 6)))
	if [ "$idx" -lt 200 ]; then want=$(printf 'baseline-1-%05d' "$idx"); else want=$(printf 'candidate-1-%05d' $((idx - 200))); fi
	keys PageDown PageDown PageDown PageDown PageDown PageDown PageDown PageDown PageDown PageDown
	wait_for "> $want"; cap 4-runs-pgdown
	check 4-runs-pgdown "> $want"
	keys G; wait_for "> candidate-1-00251"; keys Home; wait_for "> baseline-1-00000"
	keys C-d; sleep 0.5; cap 4-runs-half
	check 4-runs-half "> baseline-1-000[0-9][0-9]"
	keys g; wait_for "> baseline-1-00000"
	# esc walks back: detail, pair, esc to the detail, esc to the runs.
	keys Enter; wait_for "Gates"; keys p; wait_for "matched by"
	esc; wait_for "Gates"; esc; wait_for "sort run_id"
	# ? is the help of the view on screen: the runs view's own keys.
	keys '?'; wait_for "Keys of Runs"; cap 4-runs-help
	check 4-runs-help "S *reverse sort"
	check 4-runs-help "x *next error class"
	esc; wait_for "sort run_id"
	keys m; wait_for "quick masked"; sleep 0.5; cap 4-runs-masked
	check 4-runs-masked "of $masked_all "
	keys Enter; wait_for "Gates"; cap 5-detail
	check 5-detail "MASKED SUCCESS"
	esc; wait_for "sort run_id"
	esc; keys m v v; wait_for "gate-false evidence"; sleep 0.5; cap 4-runs-gate
	check 4-runs-gate "quick masked  scenario all  error all  gate-false evidence"
	esc
	# The filter input owns the keys: m and 2 are text, not shortcuts.
	keys / c a n d m 2; sleep 0.5; cap 4-runs-typed
	check 4-runs-typed "/candm2"
	check 4-runs-typed "quick all"
	# While the filter has focus the status line names the input's keys only.
	checkstatus 4-runs-typed "enter run  esc leave input"
	checknot 4-runs-typed "q quit"
	esc; esc

	# Paired run diff from a run: p pairs the selected run with its twin.
	keys 4; wait_for "sort run_id"; keys p; wait_for "matched by"; cap 9-pair-runs
	check 9-pair-runs "run baseline-1-00000"
	check 9-pair-runs "run candidate-1-00000"
	esc

	# Compare: gated first, enter drills to the masked runs, p pairs one.
	keys 6; wait_for "── gated"; sleep 0.5; cap 6-compare
	check 6-compare "masked_success *FAIL"
	checkstatus 6-compare "enter its runs  p pair its first run  / search"
	# No name is cut: at 80 columns the names are abbreviated by the legend
	# and a long one wraps (its scenario on the next line); the selected
	# row's interval is in the footer.
	checknot 6-compare "…"
	if [ "$size" = 160x45 ]; then
		check 6-compare "latency.stage.generation.wall.p95 @baseline  *skip"
		check 6-compare "+30.0pp \[+23.9, +36.4\]"
	else
		check 6-compare "names: lat = latency, x = exec, q = queue, w = wall"
		check 6-compare "lat.stage.generation.w.p95  *skip"
		check 6-compare "^   @baseline *$"
		check 6-compare "^masked_success: +30.0pp \[+23.9, +36.4\]"
	fi
	# 25 gated rows (7 failed, 18 skipped against the fault-free baseline)
	# come first: the exploratory heading is on the first screen at 160x45
	# only; at 80x24 the cursor moves down to it.
	if [ "$size" = 160x45 ]; then check 6-compare "exploratory"; else check 6-compare "enter its runs"; fi
	# / searches the rows, G goes to the last one.
	keys / s e a l Enter; sleep 0.3; cap 6-compare-search
	check 6-compare-search "^seal_violation: "
	check 6-compare-search "/seal  (n/N)"
	keys G; sleep 0.3; keys g; sleep 0.3
	keys Enter; wait_for "quick masked"; sleep 0.5; cap 6-compare-drill
	check 6-compare-drill "of $masked "
	esc; esc; wait_for "── gated"
	keys p; wait_for "matched by"; cap 6-compare-pair
	check 6-compare-pair "≠ success .*FAIL  MASKED"
	check 6-compare-pair "▶"
	check 6-compare-pair "aligned by kind and name"
	esc; wait_for "── gated"

	# Breakers: the candidate's visit breaker, calls through it open marked.
	keys 8; wait_for "breakers as runs"; sleep 0.3; cap 8-breakers
	check 8-breakers "candidate  visit"
	check 8-breakers "$brk ✗"
	checkstatus 8-breakers "j/↓ down  enter open its run  p pair its run  / search"
	check 8-breakers "half = half-open"
	keys j j j j Enter; wait_for "Gates"; cap 8-breakers-run
	check 8-breakers-run "run candidate-1-00035"
	esc

	# The console: focused and empty on entry, what is typed is the query.
	keys 7; wait_for "sql>"; sleep 0.3
	keys "select 2 as e, count(*) as q from events" Enter; wait_for "rows 1"; cap 7-sql
	check 7-sql "2 *│ 6995"
	if grep -q "exported to" "$out/$size-7-sql.txt"; then echo "FAIL $size 7-sql: a typed e exported"; fail=1; fi
	keys C-u "DROP TABLE events" Enter; wait_for "error: read-only"; cap 7-sql-rejected
	check 7-sql-rejected "only statements that read"
	# DuckDB parses the statement: a typo gets its parser error.
	keys C-u "SELEC 1" Enter; wait_for "Parser Error"; cap 7-sql-parse
	check 7-sql-parse 'syntax error at or near "SELEC"'
	checknot 7-sql-parse "error: read-only"
	# esc interrupts a long query.
	keys C-u "SELECT sum(a.range * b.range) FROM range(100000000) a, range(1000000) b" Enter
	wait_for "esc or ctrl+c cancels"; esc; wait_for "cancelled: SELECT sum"
	keys C-u "SELECT * FROM read_csv('/etc/passwd')" Enter; sleep 1; cap 7-sql-external
	check 7-sql-external "error:"
	keys Up Up Up Up; sleep 0.3; cap 7-sql-history
	check 7-sql-history "sql> DROP TABLE events"
	esc; keys e; sleep 0.3; cap export-none
	checkstatus export-none "nothing to export here"
	# e on a list writes all its rows, in the format picked, to the path shown.
	keys 4; wait_for "sort run_id"; keys e; wait_for "c CSV"; keys c; wait_for "write CSV to"; cap export-confirm
	checkstatus export-confirm "write CSV to $out/faultlens-runs-"
	keys Enter; wait_for "exported $runs rows to"; cap export
	test "$(ls "$out"/faultlens-runs-*.csv | wc -l)" -ge 1 || { echo "FAIL $size export: no file"; fail=1; }
	# 0 opens the suite picker: every suite, newest first, with its runs.
	keys 0; wait_for "suites, newest first"; cap 10-suites
	check 10-suites "> cand candidate *252"
	check 10-suites "base baseline *200"
	esc
	keys q
	sleep 0.5
	cleanup
}

# --follow: the run detail and the pair on screen stay on their run while
# the database grows, and the new run shows once the file is read again.
follow() {
	size=follow
	db=$out/follow.duckdb
	rm -f "$db" "$db.wal"
	"$bin" ingest --db "$db" sample-traces/baseline.jsonl sample-traces/candidate.jsonl >/dev/null 2>&1
	# One more candidate run: run 00001 again under a new run and request id.
	grep '"run_id":"candidate-1-00001"' sample-traces/candidate.jsonl |
		sed 's/candidate-1-00001/candidate-1-99999/g; s/"client_message_id":"[^"]*"/"client_message_id":"msg-e2e-follow"/' > "$out/extra.jsonl"
	tmux new-session -d -s "$sess" -x 160 -y 45 "cd $out && NO_COLOR=1 $bin ui --db $db --follow --follow-every 300ms"
	wait_for "following .*updated"
	keys 7; wait_for "sql>"; sleep 0.3
	keys "select count(*) as n from events where type = 'run'" Enter; wait_for "rows 1"; esc
	keys 4; wait_for "of $runs "; keys j Enter; wait_for "Gates"
	keys p; wait_for "matched by"
	before=$(tmux capture-pane -p -t "$sess" | grep -o "updated [0-9:]*")
	sleep 1.1 # the status says the second of the last update
	"$bin" ingest --db "$db" "$out/extra.jsonl" >/dev/null 2>&1
	for _ in $(seq 1 100); do
		now=$(tmux capture-pane -p -t "$sess" | grep -o "updated [0-9:]*" || true)
		[ -n "$now" ] && [ "$now" != "$before" ] && break
		sleep 0.2
	done
	sleep 0.5; cap 9-pair-followed
	checkstatus 9-pair-followed "following .*updated"
	check 9-pair-followed "run baseline-1-00001"
	check 9-pair-followed "run candidate-1-00001"
	esc; wait_for "Gates"; cap 5-detail-followed
	check 5-detail-followed "run baseline-1-00001 "
	keys 4; wait_for "sort run_id"; sleep 0.3; cap 4-runs-followed
	check 4-runs-followed "of $((runs + 1)) "
	# The console keeps its result, says it is older, and enter runs it again.
	keys 7; wait_for "sql>"; sleep 0.3; cap 7-sql-followed
	check 7-sql-followed "^$runs *$"
	check 7-sql-followed "read before the database grew"
	keys Enter; wait_for "^$((runs + 1)) *$"; cap 7-sql-rerun
	checknot 7-sql-rerun "read before the database grew"
	keys C-c
	sleep 0.5
	cleanup
}

walk 160 45
walk 80 24
follow
echo "screens in $out"
exit $fail
