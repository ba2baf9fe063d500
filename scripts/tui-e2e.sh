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
	# On 80 columns the suites are stacked: the candidate is a page down.
	if [ "$1" -lt 100 ]; then keys f; sleep 0.3; fi
	cap 1-overview
	check 1-overview "MASKED SUCCESS *$masked/$claimed"
	check 1-overview "claimed completed *$claimed"
	check 1-overview "actually successful *$success"

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
	keys m; wait_for "quick masked"; sleep 0.5; cap 4-runs-masked
	check 4-runs-masked "of $masked_all "
	keys Enter; wait_for "Gates"; cap 5-detail
	check 5-detail "MASKED SUCCESS"
	esc; wait_for "sort run_id"
	esc; keys m g g; wait_for "gate-false evidence"; sleep 0.5; cap 4-runs-gate
	check 4-runs-gate "quick masked  scenario all  error all  gate-false evidence"
	esc
	# The filter input owns the keys: m and 2 are text, not shortcuts.
	keys / c a n d m 2; sleep 0.5; cap 4-runs-typed
	check 4-runs-typed "/candm2"
	check 4-runs-typed "quick all"
	esc; esc

	# Paired run diff from a run: p pairs the selected run with its twin.
	keys 4; wait_for "sort run_id"; keys p; wait_for "matched by"; cap 9-pair-runs
	check 9-pair-runs "run baseline-1-00000"
	check 9-pair-runs "run candidate-1-00000"
	esc

	# Compare: gated first, enter drills to the masked runs, p pairs one.
	keys 6; wait_for "── gated"; sleep 0.5; cap 6-compare
	check 6-compare "masked_success *FAIL"
	# 25 gated rows (7 failed, 18 skipped against the fault-free baseline)
	# come first: the exploratory heading is on the first screen at 160x45
	# only; at 80x24 the cursor moves down to it.
	if [ "$size" = 160x45 ]; then check 6-compare "exploratory"; else check 6-compare "j/k row"; fi
	keys Enter; wait_for "quick masked"; sleep 0.5; cap 6-compare-drill
	check 6-compare-drill "of $masked "
	esc; esc; wait_for "── gated"
	keys p; wait_for "matched by"; cap 6-compare-pair
	check 6-compare-pair "≠ success .*FAIL  MASKED"
	check 6-compare-pair "▶"
	esc; wait_for "── gated"

	# Breakers: the candidate's visit breaker, calls through it open marked.
	keys 8; wait_for "breakers as runs"; sleep 0.3; cap 8-breakers
	check 8-breakers "candidate  visit"
	check 8-breakers "$brk ✗"
	keys j j j j Enter; wait_for "Gates"; cap 8-breakers-run
	check 8-breakers-run "run candidate-1-00035"
	esc

	# The console: focused and empty on entry, what is typed is the query.
	keys 7; wait_for "sql>"; sleep 0.3
	keys "select 2 as e, count(*) as q from events" Enter; wait_for "rows 1"; cap 7-sql
	check 7-sql "2 *│ 6995"
	if grep -q "exported to" "$out/$size-7-sql.txt"; then echo "FAIL $size 7-sql: a typed e exported"; fail=1; fi
	keys C-u "DROP TABLE events" Enter; wait_for "error: read-only"; cap 7-sql-rejected
	check 7-sql-rejected "only SELECT"
	keys C-u "SELECT * FROM read_csv('/etc/passwd')" Enter; sleep 1; cap 7-sql-external
	check 7-sql-external "error:"
	keys Up Up; sleep 0.3; cap 7-sql-history
	check 7-sql-history "sql> DROP TABLE events"
	esc; keys e; sleep 1; cap export
	check export "exported to"
	keys q
	sleep 0.5
	cleanup
}

walk 160 45
walk 80 24
echo "screens in $out"
exit $fail
