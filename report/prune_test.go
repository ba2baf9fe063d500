package report

import (
	"bytes"
	"testing"
	"time"

	"github.com/faultlens/faultlens/store"
)

func TestWritePrune(t *testing.T) {
	cutoff := time.Date(2026, 11, 1, 6, 0, 0, 0, time.FixedZone("CET", 3600))
	res := store.PruneResult{Suites: []store.OldSuite{
		{Suite: "night-1", Started: time.Date(2026, 10, 1, 2, 0, 0, 0, time.UTC), Runs: 20},
		{Suite: "bad\x1b[2Jname", Started: time.Date(2026, 10, 2, 2, 0, 0, 0, time.UTC), Runs: 1},
	}, Compaction: store.Compaction{Rewritten: true, Before: 3158016, After: 798720}}
	cases := []struct {
		res  store.PruneResult
		dry  bool
		want string
	}{
		{res, false, "dropping suite night-1: 20 runs, started 2026-10-01T02:00:00Z\n" +
			"dropping suite badname: 1 runs, started 2026-10-02T02:00:00Z\n" +
			"database t.duckdb: 3158016 → 798720 bytes\n"},
		{store.PruneResult{Suites: res.Suites}, true, "would drop suite night-1: 20 runs, started 2026-10-01T02:00:00Z\n" +
			"would drop suite badname: 1 runs, started 2026-10-02T02:00:00Z\n"},
		{store.PruneResult{}, false, "nothing older than 30d (before 2026-11-01T05:00:00Z)\n"},
	}
	for _, c := range cases {
		var b bytes.Buffer
		if err := WritePrune(&b, c.res, c.dry, "t.duckdb", "30d", cutoff); err != nil {
			t.Fatal(err)
		}
		if got := b.String(); got != c.want {
			t.Errorf("got\n%q\nwant\n%q", got, c.want)
		}
	}
}
