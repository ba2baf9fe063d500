#!/usr/bin/env bash
# End-to-end check of the dashboard: build, start under tmux on the bundled
# samples, walk every view, and compare numbers on screen with
# `faultlens report --format json` on the same input.
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
tmux new-session -d -s "$sess" -x 120 -y 40 "cd $out && NO_COLOR=1 $bin ui"
cap() { tmux capture-pane -p -t "$sess" > "$out/$1.txt"; }
wait_for() { for _ in $(seq 1 100); do tmux capture-pane -p -t "$sess" | grep -q -- "$1" && return 0; sleep 0.2; done; echo "timeout waiting for $1"; tmux capture-pane -p -t "$sess"; exit 1; }
fail=0
check() { if grep -q -- "$2" "$out/$1.txt"; then echo "ok   $1: $2"; else echo "FAIL $1: expected '$2'"; fail=1; fi; }

wait_for "MASKED SUCCESS"; cap 1-overview
masked=$(num candidate masked_success); claimed=$(num candidate claimed_completed); success=$(num candidate success)
check 1-overview "MASKED SUCCESS *$masked/$claimed"
check 1-overview "claimed completed *$claimed"
check 1-overview "actually successful *$success"
tmux send-keys -t "$sess" 2; wait_for "queue ░"; cap 2-latency
check 2-latency "QUEUED > EXECUTED"
tmux send-keys -t "$sess" f; sleep 0.3; cap 2-latency-dist
check 2-latency-dist "python *│.*│ .* n [0-9]"
tmux send-keys -t "$sess" 3; wait_for "error class"; cap 3-errors
inv=$(num candidate invalid_retry)
check 3-errors "invalid retries $inv/"
tmux send-keys -t "$sess" 4; wait_for "sort run_id"; cap 4-runs
runs=$(python3 -c "import json,sys; r=json.load(sys.stdin); print(sum(s['runs'] for s in r['suites']))" <<<"$json")
check 4-runs "of $runs "
tmux send-keys -t "$sess" m; wait_for "quick masked"; sleep 0.5; cap 4-runs-masked
masked_all=$(python3 -c "import json,sys; r=json.load(sys.stdin); print(sum(s['metrics']['masked_success']['num'] for s in r['suites']))" <<<"$json")
check 4-runs-masked "of $masked_all "
tmux send-keys -t "$sess" Enter; wait_for "Gates"; cap 5-detail
check 5-detail "MASKED SUCCESS"
tmux send-keys -t "$sess" Escape; wait_for "sort run_id"; cap 4-runs-back
# esc alone (a key right after it would read as alt+key) clears the filters
esc() { tmux send-keys -t "$sess" Escape; sleep 0.3; }
esc; tmux send-keys -t "$sess" m g g; wait_for "gate-false evidence"; sleep 0.5; cap 4-runs-gate
check 4-runs-gate "quick masked  scenario all  error all  gate-false evidence"
esc; tmux send-keys -t "$sess" n; wait_for "scenario [a-z]"; sleep 0.5; cap 4-runs-scenario
check 4-runs-scenario "quick all  scenario [a-z]"
esc; tmux send-keys -t "$sess" x; wait_for "error [A-Z]"; sleep 0.5; cap 4-runs-error
check 4-runs-error "quick all  scenario all  error [A-Z]"
esc
tmux send-keys -t "$sess" 6; wait_for "gates"; sleep 1; cap 6-compare
check 6-compare "FAIL masked_success: candidate has $masked of $claimed"
check 6-compare "masked_success  *FAIL"
tmux send-keys -t "$sess" 7 Enter Enter; wait_for "rows 1"; cap 7-sql
check 7-sql "events file_id type run_id"
tmux send-keys -t "$sess" Enter C-u "DROP TABLE events" Enter; wait_for "read-only console:"; cap 7-sql-rejected
check 7-sql-rejected "only SELECT"
tmux send-keys -t "$sess" Enter C-u "SELECT * FROM read_csv('/etc/passwd')" Enter; sleep 1; cap 7-sql-external
check 7-sql-external "error:"
tmux send-keys -t "$sess" e; sleep 1; cap export
check export "exported to"
tmux send-keys -t "$sess" q
echo "screens in $out"
exit $fail
