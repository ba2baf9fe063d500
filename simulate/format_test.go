package simulate

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"
)

func TestAppendTimeMatchesTimeFormat(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := []int64{0, -1, 951782400000, 4107542399999, DefaultStart.UnixMilli()} // 2000-02-29, 2099-12-31
	for range 20000 {
		cases = append(cases, rng.Int64N(1<<42)-1<<40)
	}
	for _, ms := range cases {
		for _, off := range []int{0, 480, -300, 330, -570, 845} {
			zone := time.UTC
			if off != 0 {
				zone = time.FixedZone("", off*60)
			}
			want := time.UnixMilli(ms).In(zone).Format("2006-01-02T15:04:05.000Z07:00")
			if got := string(appendTime(nil, ms, off)); got != want {
				t.Fatalf("appendTime(%d, %d) = %s, want %s", ms, off, got, want)
			}
		}
	}
}

func TestAppendQuotedMatchesJSON(t *testing.T) {
	for _, s := range []string{"", "plain", `q"uote`, `back\slash`, "nl\ncr\rtab\t", "\x00\x1f", "héllo 世界", "bad\xffutf8", "\u2028\u2029"} {
		got := appendQuoted(nil, s)
		var back string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("appendQuoted(%q) = %s: %v", s, got, err)
		}
		want, _ := json.Marshal(s) // encoding/json also replaces invalid UTF-8
		var wantBack string
		_ = json.Unmarshal(want, &wantBack)
		if back != wantBack {
			t.Fatalf("appendQuoted(%q) decodes to %q, want %q", s, back, wantBack)
		}
	}
}
