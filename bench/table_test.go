package bench

import (
	"strings"
	"testing"
	"time"
)

func TestWriteTable(t *testing.T) {
	res := &Result{
		Rows: []Row{
			{Step: "ingest JSONL", Events: 1_000_000, Time: 2 * time.Second, PeakRSSMiB: 512.4, Raw: "read_ndjson", RawTime: time.Second, Target: Target{MaxRatio: 1.3}},
			{Step: "full report", Events: 1_000_000, Time: 1250 * time.Millisecond, PeakRSSMiB: 600, Raw: "GROUP BY scan", RawTime: 250 * time.Millisecond, Target: Target{MaxTime: 1500 * time.Millisecond}},
			{Step: "view runs", Events: 1_000_000, Time: 8500 * time.Microsecond, PeakRSSMiB: 600, Target: Target{MaxTime: 100 * time.Millisecond}},
			{Step: "compare", Events: 1_000_000, Time: 4 * time.Second, PeakRSSMiB: 700},
		},
		Notes: []string{"a note"},
	}
	var b strings.Builder
	if err := Write(&b, res); err != nil {
		t.Fatal(err)
	}
	want := `| step         |    events |   time |    events/s | peak RSS MiB | raw           | raw time | ratio | target     | result |
| ------------ | --------: | -----: | ----------: | -----------: | ------------- | -------: | ----: | ---------- | ------ |
| ingest JSONL | 1,000,000 | 2.00 s |     500,000 |          512 | read_ndjson   |   1.00 s | 2.00× | ≤ 1.3× raw | MISS   |
| full report  | 1,000,000 | 1.25 s |     800,000 |          600 | GROUP BY scan | 250.0 ms | 5.00× | ≤ 1.5 s    | PASS   |
| view runs    | 1,000,000 | 8.5 ms | 117,647,058 |          600 | —             |        — |     — | ≤ 100 ms   | PASS   |
| compare      | 1,000,000 | 4.00 s |     250,000 |          700 | —             |        — |     — | —          | —      |

- a note
`
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1234: "-1,234"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
