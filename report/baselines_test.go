package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/faultlens/faultlens/baselines"
)

func TestWriteBaselines(t *testing.T) {
	ms := []*baselines.Manifest{
		{Name: "nightly", Suite: "baseline", Runs: 200, CreatedAt: time.Date(2026, 11, 28, 3, 0, 0, 0, time.UTC),
			Agents: []string{"careful-agent@1.4.2", "other@2"}},
		{Name: "x", Suite: "evil\x1b]0;title\x07", Runs: 3, CreatedAt: time.Date(2026, 11, 29, 3, 0, 0, 0, time.UTC)},
	}
	var b bytes.Buffer
	if err := WriteBaselines(&b, ms); err != nil {
		t.Fatal(err)
	}
	want := "name     suite     runs  created               agents                       \n" +
		"nightly  baseline  200   2026-11-28T03:00:00Z  careful-agent@1.4.2 other@2  \n" +
		"x        evil      3     2026-11-29T03:00:00Z                               \n"
	if got := b.String(); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}

	b.Reset()
	if err := WriteManifest(&b, ms[1]); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); strings.ContainsAny(got, "\x1b\x07") || !strings.Contains(got, `"runs": 3`) {
		t.Errorf("manifest:\n%q", got)
	}
}
