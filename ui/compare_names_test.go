package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// At 80 columns the compare view abbreviates names by its legend and wraps
// the ones still too wide: read back from the screen, every row's name is
// whole and no two rows read the same.
func TestCompareNamesAt80(t *testing.T) {
	db := sampleDB(t)
	m, _ := settleAt(t, db, 80, 24, press("6"))
	m.sh.height = 400 // every row on one screen
	body := ansi.Strip(m.cmp.View())
	lines := strings.Split(body, "\n")
	hdr := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "  metric") {
			hdr = i
		}
		if w := ansi.StringWidth(l); w > 80 {
			t.Errorf("line %d is %d cells wide: %q", i, w, l)
		}
	}
	if hdr < 0 {
		t.Fatalf("no header:\n%s", body)
	}
	nw := strings.Index(lines[hdr], " gate") - 2
	var names []string
	wrapped := 0
	for _, l := range lines[hdr+1 : len(lines)-2] { // the last two are the footer
		if strings.HasPrefix(l, "──") {
			continue
		}
		r := []rune(l)
		if len(r) <= 2+nw || strings.TrimSpace(string(r[2+nw:])) == "" {
			names[len(names)-1] += string(r[2:]) // a continuation line
			wrapped++
			continue
		}
		names = append(names, strings.TrimRight(string(r[2:2+nw]), " "))
	}
	if len(names) != len(m.cmp.rows) || wrapped == 0 {
		t.Fatalf("%d names (%d continuation lines) for %d rows:\n%s", len(names), wrapped, len(m.cmp.rows), body)
	}
	seen := map[string]int{}
	for i, n := range names {
		if want := rowName(m.cmp.rows[i], true); n != want {
			t.Errorf("row %d reads %q, want %q", i, n, want)
		}
		if j, dup := seen[n]; dup {
			t.Errorf("rows %d and %d both read %q", j, i, n)
		}
		seen[n] = i
	}
	if !strings.Contains(body, "names: lat = latency, x = exec, q = queue, w = wall") {
		t.Errorf("no legend:\n%s", body)
	}
	// The interval the narrow rows leave out is in the footer.
	if foot := lines[len(lines)-2]; foot != "masked_success: +30.0pp [+23.9, +36.4]" {
		t.Errorf("footer %q", foot)
	}
}

func TestWrapName(t *testing.T) {
	for _, c := range []struct {
		name string
		w    int
		want []string
	}{
		{"lat.stage.generation.w.p95 @baseline", 35, []string{"lat.stage.generation.w.p95", " @baseline"}},
		{"lat.tool.save_report.q.p95", 12, []string{"lat.tool.", "save_report.", "q.p95"}},
		{"abcdefgh", 3, []string{"abc", "def", "gh"}},
		{"short", 35, []string{"short"}},
	} {
		if got := wrapName(c.name, c.w); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("wrapName(%q, %d) = %q, want %q", c.name, c.w, got, c.want)
		}
	}
}
