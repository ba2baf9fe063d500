package ui

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/textsafe"
)

// table is a list's rows as data: what e exports, every row the list's
// filters keep, not the lines on screen.
type table struct {
	cols []string
	rows [][]string
}

// exportable is a view whose list e exports: rows returns its table, or
// (for the paged runs) asks the backend for every row in the export's Cmd.
type exportable interface {
	exportRows(ctx context.Context, b *backend) (table, error)
}

// exportFormats are the formats the prompt offers, by key.
var exportFormats = map[string]string{"c": "csv", "j": "json", "m": "md"}

// exportPrompt is the export's two questions: the format, then the path.
// While open it owns the keyboard.
type exportPrompt struct {
	open   bool
	format string // "" while the format is asked for
	path   string // where it will write, shown to be confirmed
}

// startExport opens the prompt on a list view, or says why not.
func (m *Model) startExport() {
	if _, ok := m.page(m.tab).(exportable); !ok {
		m.sh.status = "nothing to export here: e exports the lists (runs, compare, breakers, errors, suites)"
		return
	}
	m.exp = exportPrompt{open: true}
}

// exportKey answers the prompt: c, j or m picks the format and shows the
// path, enter writes there, esc closes the prompt.
func (m Model) exportKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	s := msg.String()
	switch {
	case s == "esc":
		m.exp = exportPrompt{}
		m.sh.status = "export cancelled"
	case m.exp.format == "" && exportFormats[s] != "":
		m.exp.format = exportFormats[s]
		name := strings.ToLower(strings.ReplaceAll(viewNames[m.tab], " ", "-"))
		m.exp.path = exportPath(m.sh.opts.ExportDir, name, m.exp.format, time.Now())
	case m.exp.format != "" && s == "enter":
		p, _ := m.page(m.tab).(exportable)
		path, format := m.exp.path, m.exp.format
		m.exp = exportPrompt{}
		m.exportSeq++
		m.sh.status = "exporting to " + safe(path) + "…"
		return m, m.sh.startLoad(exportCmd(m.sh.ctx, m.sh.be, m.exportSeq, p, format, path))
	}
	return m, nil
}

// promptLine is the prompt in the status line.
func (e exportPrompt) promptLine() string {
	if e.format == "" {
		return "export every row as: c CSV  j JSON  m Markdown  (esc cancels)"
	}
	return "write " + strings.ToUpper(e.format) + " to " + safe(e.path) + " ? enter writes, esc cancels"
}

// exportPath is the file an export of view name writes: in dir (the
// working directory when ""), named by the view and the time.
func exportPath(dir, name, format string, now time.Time) string {
	path := filepath.Join(dir, "faultlens-"+name+"-"+now.Format("20060102-150405")+"."+format)
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return path
}

// exportCmd reads the rows (every run of the filter, for the runs view)
// and writes them; all of it I/O, so in a Cmd. A file there already is not
// overwritten.
func exportCmd(ctx context.Context, b *backend, seq int, p exportable, format, path string) tea.Cmd {
	return func() tea.Msg {
		t, err := p.exportRows(ctx, b)
		if err != nil {
			return exportedMsg{seq: seq, path: path, err: err}
		}
		data, err := encodeTable(t, format)
		if err != nil {
			return exportedMsg{seq: seq, path: path, err: err}
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return exportedMsg{seq: seq, path: path, err: err}
		}
		if _, err := f.Write(data); err != nil {
			_ = f.Close() // the write's error is the one to report
			return exportedMsg{seq: seq, path: path, err: err}
		}
		return exportedMsg{seq: seq, path: path, rows: len(t.rows), err: f.Close()}
	}
}

// encodeTable writes t as CSV, JSON (an array of objects by column) or a
// Markdown table. Cells come from traces: CSV cells that a spreadsheet
// would run as a formula are quoted with a leading ', Markdown cells have
// their pipes and line breaks escaped, and control characters are made
// visible in every format but JSON (which escapes them itself).
func encodeTable(t table, format string) ([]byte, error) {
	var b bytes.Buffer
	switch format {
	case "csv":
		w := csv.NewWriter(&b)
		if err := w.Write(t.cols); err != nil {
			return nil, err
		}
		for _, r := range t.rows {
			out := make([]string, len(r))
			for i, c := range r {
				out[i] = csvCell(c)
			}
			if err := w.Write(out); err != nil {
				return nil, err
			}
		}
		w.Flush()
		return b.Bytes(), w.Error()
	case "json":
		objs := make([]map[string]string, len(t.rows))
		for i, r := range t.rows {
			objs[i] = map[string]string{}
			for j, c := range r {
				objs[i][t.cols[j]] = c
			}
		}
		data, err := json.MarshalIndent(objs, "", "  ")
		return append(data, '\n'), err
	case "md":
		b.WriteString("| " + strings.Join(mdCells(t.cols), " | ") + " |\n")
		b.WriteString("|" + strings.Repeat(" --- |", len(t.cols)) + "\n")
		for _, r := range t.rows {
			b.WriteString("| " + strings.Join(mdCells(r), " | ") + " |\n")
		}
		return b.Bytes(), nil
	}
	return nil, fmt.Errorf("unknown export format %q", format)
}

func csvCell(s string) string {
	s = textsafe.Terminal(s)
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		if _, err := fmt.Sscan(s, new(float64)); err != nil { // a negative number stays a number
			return "'" + s
		}
	}
	return s
}

func mdCells(cells []string) []string {
	out := make([]string, len(cells))
	r := strings.NewReplacer(`\`, `\\`, "|", `\|`, "\n", " ", "\r", " ", "<", "&lt;", ">", "&gt;")
	for i, c := range cells {
		out[i] = r.Replace(textsafe.Terminal(c))
	}
	return out
}

// exportRows of the runs view is every run of its filter, in its order.
func (r runsView) exportRows(ctx context.Context, b *backend) (table, error) {
	rows, total, err := b.runs(ctx, r.filter, r.sort, 0, maxExportRows)
	if err != nil {
		return table{}, err
	}
	if total > int64(len(rows)) {
		return table{}, fmt.Errorf("%d runs match: more than the %d an export holds; narrow the filter", total, maxExportRows)
	}
	t := table{cols: []string{"run_id", "suite", "scenario", "agent", "claimed", "verdict", "masked", "calls", "resends", "e2e_ms"}}
	for _, x := range rows {
		e2e := ""
		if x.EndToEndMs != nil {
			e2e = fmt.Sprintf("%.1f", *x.EndToEndMs)
		}
		t.rows = append(t.rows, []string{x.RunID, x.Suite, x.Scenario, x.Agent, x.Claimed, x.Verdict,
			fmt.Sprint(x.Masked), fmt.Sprint(x.Calls), fmt.Sprint(x.Resends), e2e})
	}
	return t, nil
}

// maxExportRows bounds an export of runs (a million-event database has
// tens of thousands).
const maxExportRows = 1_000_000

// exportRows of the compare view is every row it lists.
func (v compareView) exportRows(context.Context, *backend) (table, error) {
	t := table{cols: []string{"metric", "scenario", "gated", "gate", "baseline", "candidate", "verdict", "delta", "reason"}}
	for _, r := range v.rows {
		t.rows = append(t.rows, []string{r.Metric, r.Scenario, fmt.Sprint(r.gated), r.verdict,
			cmpCell(r.Row, r.Base), cmpCell(r.Row, r.Cand), sigMark(r.Row), cmpDelta(r.Row), r.reason})
	}
	return t, nil
}

// exportRows of the breaker view is every event listed.
func (v breakerView) exportRows(context.Context, *backend) (table, error) {
	t := table{cols: []string{"at", "suite", "tool", "from", "to", "status", "run_id", "call_id", "through_open"}}
	if v.t != nil {
		for _, e := range v.t.Events {
			t.rows = append(t.rows, []string{time.UnixMilli(int64(e.AtMs)).UTC().Format(time.RFC3339Nano), e.Suite, e.Tool,
				e.From, e.To, e.Status, e.RunID, e.CallID, fmt.Sprint(e.BreakerViolation)})
		}
	}
	return t, nil
}

// exportRows of the picker is every suite.
func (v suitesView) exportRows(context.Context, *backend) (table, error) {
	t := table{cols: []string{"suite", "runs", "first_started_at"}}
	for _, s := range v.list {
		when := ""
		if s.StartedAt != nil {
			when = s.StartedAt.UTC().Format(time.RFC3339)
		}
		t.rows = append(t.rows, []string{s.Suite, fmt.Sprint(s.Runs), when})
	}
	return t, nil
}

// exportRows of the errors view is the recovery chains by suite, error
// class and outcome.
func (v errorsView) exportRows(context.Context, *backend) (table, error) {
	t := table{cols: []string{"suite", "error_class", "outcome", "chains"}}
	if v.sh.ov != nil {
		for _, c := range v.sh.ov.matrix {
			t.rows = append(t.rows, []string{c.Suite, c.Category, c.Outcome, fmt.Sprint(c.Chains)})
		}
	}
	return t, nil
}

var _ = metrics.RunRow{}
