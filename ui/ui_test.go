package ui

import (
	"context"
	"database/sql"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/faultlens/faultlens/ingest"
	sampletraces "github.com/faultlens/faultlens/sample-traces"
	"github.com/faultlens/faultlens/store"
)

var _ = flag.Bool // golden registers -update

// sampleDB ingests the bundled samples into a fresh in-memory database.
func sampleDB(t *testing.T) *sql.DB {
	t.Helper()
	ctx := context.Background()
	dir, paths, err := sampletraces.Extract(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := os.RemoveAll(dir); err != nil {
			t.Error(err)
		}
	})
	db, err := store.Open(ctx, "", store.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	})
	names := map[string]string{}
	for _, p := range paths {
		names[p] = filepath.Join("sample-traces", filepath.Base(p))
	}
	if _, err := ingest.Files(ctx, db, paths, ingest.Options{Names: names}); err != nil {
		t.Fatal(err)
	}
	return db
}

// waitMsg in a key list ends a phase of settle: the keys after it are sent
// once nothing is loading.
type waitMsg struct{}

func press(s string) tea.Msg {
	switch s {
	case "wait":
		return waitMsg{}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "ctrl+u", "ctrl+w", "ctrl+d":
		return tea.KeyPressMsg{Code: rune(s[5]), Mod: tea.ModCtrl}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

// typed is the key presses that type s.
func typed(s string) []string {
	var out []string
	for _, r := range s {
		if r == ' ' {
			out = append(out, "space")
			continue
		}
		out = append(out, string(r))
	}
	return out
}

// settle runs the model under teatest at 100×30 with the ASCII profile,
// presses keys, waits until nothing is loading and returns the final view.
func settle(t *testing.T, db *sql.DB, keys ...string) (Model, string) {
	t.Helper()
	msgs := make([]tea.Msg, len(keys))
	for i, k := range keys {
		msgs[i] = press(k)
	}
	return settleMsgs(t, db, msgs...)
}

// settleMsgs is settle with any messages in place of key names.
func settleMsgs(t *testing.T, db *sql.DB, msgs ...tea.Msg) (Model, string) {
	t.Helper()
	return settleAt(t, db, 100, 30, msgs...)
}

// settleAt is settleMsgs on a w×h terminal.
func settleAt(t *testing.T, db *sql.DB, w, h int, msgs ...tea.Msg) (Model, string) {
	t.Helper()
	return settleWith(t, Options{DB: db}, w, h, msgs...)
}

// settleWith is settleAt with options o (its export directory and colour
// set for the test).
func settleWith(t *testing.T, o Options, w, h int, msgs ...tea.Msg) (Model, string) {
	t.Helper()
	o.ExportDir, o.NoColor = t.TempDir(), true
	m := New(context.Background(), o)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	tm.Send(quitWhenIdleMsg{}) // wait for the report first
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(30*time.Second)).(Model)
	return resumeWith(t, fm, msgs...)
}

// resumeWith continues the settled model fm (at its screen's size) with
// msgs, in phases as settleWith does.
func resumeWith(t *testing.T, fm Model, msgs ...tea.Msg) (Model, string) {
	t.Helper()
	w, h := fm.sh.width, fm.sh.height
	// Further programs continue from the loaded model for the keys, one
	// per phase: a "wait" key ends a phase when nothing is loading, so keys
	// after it meet the data the keys before it asked for.
	var final Model
	for {
		tm2 := teatest.NewTestModel(t, fm.resume(), teatest.WithInitialTermSize(w, h),
			teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
		rest := []tea.Msg(nil)
		for i, msg := range msgs {
			if _, ok := msg.(waitMsg); ok {
				rest = msgs[i+1:]
				break
			}
			tm2.Send(msg)
		}
		tm2.Send(quitWhenIdleMsg{})
		final = tm2.FinalModel(t, teatest.WithFinalTimeout(30*time.Second)).(Model)
		if rest == nil {
			break
		}
		fm, msgs = final, rest
	}
	return final, ansi.Strip(final.View().Content)
}

func TestGoldenViews(t *testing.T) {
	db := sampleDB(t)
	for _, c := range []struct {
		name string
		keys []string
	}{
		{"overview", nil},
		{"latency", []string{"2"}},
		{"errors", []string{"3"}},
		{"runs", []string{"4"}},
		{"detail", []string{"4", "enter"}},
		{"compare", []string{"6"}},
		{"sql", append(append([]string{"7"}, typed("select type, count(*) as n from events group by type order by n desc")...), "enter")},
		{"help", []string{"?"}},
		{"breakers", []string{"8"}},
		{"pair-from-runs", []string{"4", "down", "p"}},
		{"pair-from-compare", []string{"6", "j", "p"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, out := settle(t, db, c.keys...)
			golden.RequireEqual(t, []byte(out))
		})
	}
}

func TestNavigationFilterSortDrillBack(t *testing.T) {
	db := sampleDB(t)
	m, out := settle(t, db, "tab", "tab", "tab")
	if m.tab != viewRuns || !strings.Contains(out, "of 452") {
		t.Fatalf("tab×3: tab %d\n%s", m.tab, out)
	}
	m, out = settle(t, db, "4", "m")
	if m.runs.filter.Quick != "masked" || !strings.Contains(out, "of 65 ") {
		t.Fatalf("masked quick filter:\n%s", out)
	}
	m, out = settle(t, db, append(append([]string{"4", "/"}, typed("cand")...), "enter")...)
	if m.runs.filter.Text != "cand" || !strings.Contains(out, "of 252 ") {
		t.Fatalf("text filter:\n%s", out)
	}
	m, _ = settle(t, db, "4", "s", "s", "s", "s", "s", "s", "s", "s", "S")
	if m.runs.sort.Column != "resends" || !m.runs.sort.Desc {
		t.Fatalf("sort: %+v", m.runs.sort)
	}
	if m.runs.rows[0].Resends < m.runs.rows[len(m.runs.rows)-1].Resends {
		t.Fatalf("not sorted by resends desc")
	}
	m, out = settle(t, db, "4", "down", "enter")
	if m.tab != viewDetail || m.detail.d == nil || m.detail.d.RunID != m.runs.rows[1].RunID {
		t.Fatalf("drill-down:\n%s", out)
	}
	m, _ = settle(t, db, "4", "enter", "esc")
	if m.tab != viewRuns {
		t.Fatalf("esc: tab %d", m.tab)
	}
	m, out = settle(t, db, append(append([]string{"7"}, typed("DROP TABLE events")...), "enter")...)
	if m.sql.err == nil || !strings.Contains(out, "read-only console") {
		t.Fatalf("write accepted:\n%s", out)
	}
}
