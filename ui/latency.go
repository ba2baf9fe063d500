package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"github.com/faultlens/faultlens/metrics"
)

// latencyPair is one stage or tool with its latency in both suites (either
// may be nil when the stage or tool ran in one suite only).
type latencyPair struct {
	scope, name string
	base, cand  *metrics.LatencyRow
}

// latencyPairs lines up the stages and tools of the two suites' latency
// rows in report order (the baseline's first, then those only the
// candidate has).
func latencyPairs(b, c []metrics.LatencyRow) []latencyPair {
	var out []latencyPair
	idx := map[string]int{}
	add := func(rows []metrics.LatencyRow, cand bool) {
		for i := range rows {
			r := &rows[i]
			if r.Scope == "run" {
				continue
			}
			k := r.Scope + "\x00" + r.Name
			j, ok := idx[k]
			if !ok {
				j = len(out)
				idx[k] = j
				out = append(out, latencyPair{scope: r.Scope, name: r.Name})
			}
			if cand {
				out[j].cand = r
			} else {
				out[j].base = r
			}
		}
	}
	add(b, false)
	add(c, true)
	return out
}

// latencyView is the latency of every stage and tool, the baseline beside
// the candidate, one scrolled body. The percentiles are the report's (the
// overview's load reads them with the rest of it, from the session's
// latency_facts); the wall-time histograms are the view's own data, asked
// for in one request when the view is first shown after the suites were
// (re)loaded.
type latencyView struct {
	sh       *shared
	keys     scrollKeys
	seq      int  // the request awaited; older answers are dropped
	asked    bool // the histograms of the facts shown were asked for
	answered bool // and their answer (hists or err) is in
	hists    []metrics.LatencyHistogram
	err      error
	scroller
}

func newLatencyView(sh *shared) latencyView { return latencyView{sh: sh, keys: newScrollKeys()} }

// Update loads the histograms (again after a refresh, now if on screen,
// else on the next visit), keeps the answer to the latest request only,
// and scrolls.
func (v latencyView) Update(msg tea.Msg) (latencyView, tea.Cmd) {
	switch msg := msg.(type) {
	case histogramsMsg:
		if msg.seq == v.seq {
			v.hists, v.err, v.answered = msg.hists, msg.err, true
		}
		return v, nil
	case factsMsg:
		v.seq++ // drops the answer in flight: it read the old facts
		v.hists, v.err, v.asked, v.answered = nil, nil, false, false
		if msg.onScreen {
			return v, v.load()
		}
		return v, nil
	case shownMsg:
		if !v.asked && v.sh.ov != nil {
			return v, v.load()
		}
		return v, nil
	}
	c, _ := v.update(v.sh, v.keys, msg, v.View)
	return v, c
}

// load asks for the histograms.
func (v *latencyView) load() tea.Cmd {
	v.seq++
	v.asked = true
	return v.sh.startLoad(histogramsCmd(v.sh.ctx, v.sh.be, v.seq))
}

// rowsOf is suite s's latency rows (the report's): nil when there is no
// such suite, empty when it has none.
func rowsOf(s *metrics.Suite) []metrics.LatencyRow {
	if s == nil {
		return nil
	}
	if s.Latency != nil {
		return s.Latency
	}
	return []metrics.LatencyRow{}
}

// distribution is the histograms' section, or what stands in for it.
func (v latencyView) distribution(bn, cn string) string {
	switch {
	case v.err != nil:
		return v.sh.styles.Error.Render("wall-time distribution: "+safe(v.err.Error())) + "\n"
	case !v.answered:
		return v.sh.spin.View() + " reading the wall-time distribution…\n"
	}
	return latencyDistribution(v.hists, bn, cn, v.sh.styles)
}

// Keys are the scrolling keys.
func (v latencyView) Keys() help.KeyMap { return v.keys }

// View puts the baseline beside the candidate for every stage and tool:
// p50 and p95 of both with the change, and a p95 bar of queue (░) then
// execution (█) whose scale is the row's own, so one slow tool does not
// flatten every other row to a sliver.
func (v latencyView) View() string {
	b, c := v.sh.pair()
	st := v.sh.styles
	br, cr := rowsOf(b), rowsOf(c)
	var out strings.Builder
	out.WriteString("p95 bars: queue ░ then execution █, each row on its own scale; Δ = candidate − baseline\n")
	bn, cn := suiteName(b), suiteName(c)
	flag := " ◀ QUEUED > EXECUTED"
	if v.sh.width < 96 {
		flag = " ◀ Q>X" // the legend line says what it means
		out.WriteString("◀ Q>X: QUEUED > EXECUTED (p95 queue above p95 execution and over 1 s)\n")
	}
	w := max(8, min(30, v.sh.width-68-len([]rune(flag))))
	out.WriteString(st.Header.Render(fmt.Sprintf("%-19s %-9s %-*s %8s %8s %6s %9s", "stage / tool", "suite", w+2, "p95 queue+exec", "p50", "p95", "queue", "Δp95")) + "\n")
	for _, p := range latencyPairs(br, cr) {
		scale := max(p95Total(p.base), p95Total(p.cand))
		for i, side := range []struct {
			name string
			r    *metrics.LatencyRow
		}{{bn, p.base}, {cn, p.cand}} {
			label := ""
			if i == 0 {
				label = fmt.Sprintf("%-5s %s", p.scope, safe(p.name))
			}
			if side.r == nil {
				fmt.Fprintf(&out, "%-19s %-9s %s\n", pad(label, 19), pad(side.name, 9), st.Faint.Render("(not run)"))
				continue
			}
			r := side.r
			qn, xn := cells(val(r.QueueMs.P95), scale, w), cells(val(r.ExecMs.P95), scale, w)
			if qn+xn > w {
				xn = max(0, w-qn)
			}
			bar := "│" + st.Queue.Render(strings.Repeat("░", qn)) + st.Exec.Render(strings.Repeat("█", xn)) + strings.Repeat(" ", w-qn-xn) + "│"
			delta := ""
			if i == 1 && p.base != nil {
				delta = deltaMs(p.base.WallMs.P95, r.WallMs.P95)
			}
			line := fmt.Sprintf("%-19s %-9s %s %8s %8s %6s %9s", pad(label, 19), pad(side.name, 9), bar,
				ms(r.WallMs.P50), ms(r.WallMs.P95), share(r.QueueShare), delta)
			if queued(r) {
				line = st.Bad.Render(line + flag)
			}
			out.WriteString(line + "\n")
		}
	}
	out.WriteString("\n" + v.distribution(bn, cn))
	out.WriteString("\n" + latencyTable(br, cr, st))
	return strings.TrimRight(out.String(), "\n")
}

// queued flags a row whose p95 wait in the queue exceeds its p95 execution
// by more than a second: the time went to waiting, not to work.
func queued(r *metrics.LatencyRow) bool {
	return val(r.QueueMs.P95) > val(r.ExecMs.P95) && val(r.QueueMs.P95) > 1000
}

func p95Total(r *metrics.LatencyRow) float64 {
	if r == nil {
		return 0
	}
	return val(r.QueueMs.P95) + val(r.ExecMs.P95)
}

func share(f *float64) string {
	if f == nil {
		return "–"
	}
	return fmt.Sprintf("%.0f%%", *f*100)
}

// deltaMs is cand − base in ms, signed; "–" when either is missing.
func deltaMs(base, cand *float64) string {
	if base == nil || cand == nil {
		return "–"
	}
	return signedMs(*cand - *base)
}

func suiteName(s *metrics.Suite) string {
	if s == nil {
		return "–"
	}
	return safe(s.Suite)
}

func cells(v, scale float64, w int) int {
	if scale <= 0 || v <= 0 {
		return 0
	}
	n := int(v / scale * float64(w))
	if n == 0 {
		n = 1
	}
	return n
}

// latencyTable is the percentile table of both suites' latency rows (nil
// for a suite not shown): one line per stage or tool and clock, the
// baseline's p50/p95/p99 beside the candidate's and the change of p95.
func latencyTable(b, c []metrics.LatencyRow, st Styles) string {
	var out strings.Builder
	out.WriteString(st.Header.Render(fmt.Sprintf("%-19s %-5s %8s %8s %8s │ %8s %8s %8s │ %9s", "percentiles", "clock",
		"b p50", "b p95", "b p99", "c p50", "c p95", "c p99", "Δp95")) + "\n")
	var runRows []latencyPair
	if b != nil || c != nil {
		runRows = append(runRows, latencyPair{scope: "run", name: "end_to_end", base: runRow(b), cand: runRow(c)})
	}
	for _, p := range append(latencyPairs(b, c), runRows...) {
		clocks := []string{"queue", "exec", "wall"}
		if p.scope == "run" {
			clocks = clocks[2:]
		}
		for i, clock := range clocks {
			label := ""
			if i == 0 {
				label = fmt.Sprintf("%-5s %s", p.scope, safe(p.name))
			}
			bq, cq := clockOf(p.base, clock), clockOf(p.cand, clock)
			fmt.Fprintf(&out, "%-19s %-5s %8s %8s %8s │ %8s %8s %8s │ %9s\n", pad(label, 19), clock,
				ms(bq.P50), ms(bq.P95), ms(bq.P99), ms(cq.P50), ms(cq.P95), ms(cq.P99), deltaMs(bq.P95, cq.P95))
		}
	}
	return out.String()
}

func runRow(rows []metrics.LatencyRow) *metrics.LatencyRow {
	for i := range rows {
		if rows[i].Scope == "run" {
			return &rows[i]
		}
	}
	return nil
}

func clockOf(r *metrics.LatencyRow, clock string) metrics.Quantiles {
	if r == nil {
		return metrics.Quantiles{}
	}
	switch clock {
	case "queue":
		return r.QueueMs
	case "exec":
		return r.ExecMs
	}
	return r.WallMs
}
