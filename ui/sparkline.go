package ui

import (
	"fmt"
	"strings"

	"github.com/faultlens/faultlens/metrics"
)

// sparkTicks are the eight heights of a sparkline cell.
var sparkTicks = []rune("▁▂▃▄▅▆▇█")

// latencyDistribution draws the wall-time histogram of every stage and tool
// as a sparkline over log-spaced buckets, the baseline's beside the
// candidate's; the scale of a stage or tool is shared by the suites, so
// their shapes compare directly.
func latencyDistribution(hists []metrics.LatencyHistogram, base, cand string, st Styles) string {
	type pairH struct{ b, c *metrics.LatencyHistogram }
	var keys []string
	by := map[string]*pairH{}
	for i := range hists {
		h := &hists[i]
		if h.Suite != base && h.Suite != cand {
			continue
		}
		k := h.Scope + "\x00" + h.Name
		if by[k] == nil {
			by[k] = &pairH{}
			keys = append(keys, k)
		}
		if h.Suite == base {
			by[k].b = h
		} else {
			by[k].c = h
		}
	}
	if len(keys) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(st.Title.Render("wall-time distribution") + fmt.Sprintf("  log-spaced buckets, one scale per row: %s │ %s\n", base, cand))
	for _, k := range keys {
		p := by[k]
		h := p.b
		if h == nil {
			h = p.c
		}
		fmt.Fprintf(&b, "%-5s %-13s │%s│%s│ %s … %s\n", h.Scope, pad(safe(h.Name), 13),
			histSpark(p.b), histSpark(p.c), msf(h.LoMs), msf(h.HiMs))
	}
	return b.String()
}

func histSpark(h *metrics.LatencyHistogram) string {
	if h == nil {
		return strings.Repeat(" ", metrics.HistogramBuckets)
	}
	return sparkline(h.Counts[:])
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
