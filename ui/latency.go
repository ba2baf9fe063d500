package ui

import (
	"fmt"
	"strings"

	"github.com/faultlens/faultlens/metrics"
)

// latencyBody draws, per suite, every stage and tool as queue (░) stacked
// before execution (█) at p50 and p95 on one scale, then the percentile
// table with the queue share.
func (m Model) latencyBody() string {
	var b strings.Builder
	b.WriteString("queue ░ then execution █, one scale per suite; q = queue, x = execution\n")
	ss := m.suites()
	for i := range ss {
		s := ss[len(ss)-1-i] // the candidate first: it is where queueing hurts
		b.WriteString("\n" + m.latencyBars(s))
		b.WriteString(m.latencyDistribution(s.Suite))
		b.WriteString("\n" + m.latencyTable(s))
	}
	return strings.TrimRight(b.String(), "\n")
}

func (m Model) latencyBars(s *metrics.Suite) string {
	st := m.styles
	scale := 0.0
	for _, r := range s.Latency {
		if r.Scope != "run" {
			scale = max(scale, val(r.QueueMs.P95)+val(r.ExecMs.P95))
		}
	}
	w := max(10, min(40, m.width-60))
	var b strings.Builder
	b.WriteString(st.Title.Render("suite "+safe(s.Suite)) + "  stacked p50 / p95\n")
	for _, r := range s.Latency {
		if r.Scope == "run" {
			continue
		}
		for i, q := range []struct {
			label  string
			qv, xv *float64
		}{{"p50", r.QueueMs.P50, r.ExecMs.P50}, {"p95", r.QueueMs.P95, r.ExecMs.P95}} {
			name := ""
			if i == 0 {
				name = fmt.Sprintf("%-5s %-12s", r.Scope, safe(r.Name))
			}
			qn, xn := cells(val(q.qv), scale, w), cells(val(q.xv), scale, w)
			if qn+xn > w {
				xn = w - qn
			}
			line := fmt.Sprintf("%-18s %s %s%s%s q %7s x %7s", name, q.label,
				st.Queue.Render(strings.Repeat("░", qn)), st.Exec.Render(strings.Repeat("█", xn)),
				strings.Repeat(" ", w-qn-xn), ms(q.qv), ms(q.xv))
			if val(q.qv) > val(q.xv) && val(q.qv) > 1000 {
				line += st.Bad.Render("  ◀ QUEUED > EXECUTED")
			}
			b.WriteString(line + "\n")
		}
	}
	return b.String()
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

func (m Model) latencyTable(s *metrics.Suite) string {
	var b strings.Builder
	b.WriteString(m.styles.Header.Render(fmt.Sprintf("%-18s %5s %-5s %8s %8s %8s %8s %6s", "scope name", "n", "clock", "p50", "p95", "p99", "max", "queue")) + "\n")
	for _, r := range s.Latency {
		share := "–"
		if r.QueueShare != nil {
			share = fmt.Sprintf("%.1f%%", *r.QueueShare*100)
		}
		name := fmt.Sprintf("%-5s %-12s", r.Scope, safe(r.Name))
		clocks := []struct {
			label string
			q     metrics.Quantiles
		}{{"queue", r.QueueMs}, {"exec", r.ExecMs}, {"wall", r.WallMs}}
		if r.Scope == "run" {
			clocks = clocks[2:]
		}
		for i, c := range clocks {
			n, sh := "", ""
			if i == 0 {
				n, sh = fmt.Sprint(r.N), share
			} else {
				name = ""
			}
			fmt.Fprintf(&b, "%-18s %5s %-5s %8s %8s %8s %8s %6s\n", name, n, c.label,
				ms(c.q.P50), ms(c.q.P95), ms(c.q.P99), ms(c.q.Max), sh)
		}
	}
	return b.String()
}

// sparkTicks are the eight heights of a sparkline cell.
var sparkTicks = []rune("▁▂▃▄▅▆▇█")

// latencyDistribution draws the wall-time histogram of every stage and tool
// of suite as a sparkline over log-spaced buckets; the scale of a stage or
// tool is shared by the suites, so their shapes compare directly.
func (m Model) latencyDistribution(suite string) string {
	var b strings.Builder
	for _, h := range m.ov.hists {
		if h.Suite != suite {
			continue
		}
		if b.Len() == 0 {
			b.WriteString(m.styles.Title.Render("wall-time distribution") + "  log-spaced buckets, scale shared by suites\n")
		}
		fmt.Fprintf(&b, "%-5s %-12s │%s│ %s … %s  n %d\n", h.Scope, pad(safe(h.Name), 12),
			sparkline(h.Counts[:]), msf(h.LoMs), msf(h.HiMs), total(h.Counts[:]))
	}
	return b.String()
}

// sparkline draws one cell per count, the highest as a full block; an
// empty bucket is a blank.
func sparkline(counts []int64) string {
	var top int64
	for _, c := range counts {
		top = max(top, c)
	}
	var b strings.Builder
	for _, c := range counts {
		if c == 0 || top == 0 {
			b.WriteRune(' ')
			continue
		}
		i := int((c*int64(len(sparkTicks)) - 1) / top)
		b.WriteRune(sparkTicks[min(i, len(sparkTicks)-1)])
	}
	return b.String()
}

func total(counts []int64) int64 {
	var n int64
	for _, c := range counts {
		n += c
	}
	return n
}
