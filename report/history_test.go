package report

import (
	"bytes"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/faultlens/faultlens/internal/golden"
	"github.com/faultlens/faultlens/metrics"
)

// historyFixture is three suites, the last with no start (no run event
// carried one) and a name holding a terminal escape; success rises, masked
// success falls, and breaker_violation has no value in the middle suite.
func historyFixture() *metrics.Trend {
	day := func(d int) *time.Time { t := time.Date(2026, 11, d, 2, 0, 0, 0, time.UTC); return &t }
	return &metrics.Trend{
		Suites: []metrics.SuiteStart{
			{Suite: "night-1", StartedAt: day(1), Runs: 200},
			{Suite: "night-2", StartedAt: day(2), Runs: 210},
			{Suite: "evil\x1b[31mred", Runs: 3},
		},
		Metrics: []string{"success", "masked_success", "breaker_violation"},
		Values: [][]float64{
			{0.5, 0.75, 1},
			{0.3, 0.2, 0.1},
			{0.25, math.NaN(), 0.25},
		},
	}
}

func TestGoldenHistory(t *testing.T) {
	for _, format := range HistoryFormats {
		t.Run(format, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteHistory(&b, historyFixture(), format); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(b.String(), "\x1b") {
				t.Errorf("a suite name's escape reached the %s output", format)
			}
			golden.Check(t, filepath.Join("testdata", "history."+format+".golden"), b.Bytes())
		})
	}
	if err := WriteHistory(&bytes.Buffer{}, historyFixture(), "csv"); err == nil {
		t.Error("an unknown format was accepted")
	}
}

func TestSparkline(t *testing.T) {
	cases := []struct {
		vals []float64
		want string
	}{
		{[]float64{0, 0.5, 1}, "▁▅█"},
		{[]float64{0.2, 0.2}, "▄▄"},
		{[]float64{math.NaN(), 0.1, 0.3}, " ▁█"},
		{nil, ""},
	}
	for _, c := range cases {
		if got := sparkline(c.vals); got != c.want {
			t.Errorf("sparkline(%v) = %q, want %q", c.vals, got, c.want)
		}
	}
}
