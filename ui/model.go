// Package ui is faultlens's interactive terminal dashboard (bubbletea v2).
// The root Model owns what every view shares (the suites, the screen's
// size, the tabs and the global keys) and routes messages to the views,
// each its own model with its own keys, as gh-dash composes its sections;
// all I/O happens in tea.Cmds built in messages.go over the backend.
package ui

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/faultlens/faultlens/metrics"
)

// view identifies a tab.
type view int

const (
	viewOverview view = iota
	viewLatency
	viewErrors
	viewRuns
	viewDetail
	viewCompare
	viewSQL
	viewBreakers
	viewPair
	viewSuites
	nViews
)

var viewNames = [nViews]string{"Overview", "Latency", "Errors", "Runs", "Run detail", "Compare", "SQL", "Breakers", "Pair", "Suites"}

// ViewNames lists the dashboard's views in tab order, so that help texts
// name every view the dashboard has rather than a hand-kept list.
func ViewNames() []string { return viewNames[:] }

// Options configure the dashboard.
type Options struct {
	DB                  *sql.DB // the ingested traces
	Baseline, Candidate string  // suite names; "" picks baseline/candidate or the first two
	ExportDir           string  // where e writes a list's rows; "" is the working directory
	NoColor             bool
	Follow              *Follow // refresh as the database file grows; nil: never
	// Catalog lists every suite the suite picker offers (in date order);
	// nil lists those of DB. A DB that copies two suites of a file lists
	// the file's here.
	Catalog func(context.Context) ([]metrics.SuiteStart, error)
	// Rescope copies the suites base and cand as a new DB when the picker
	// picks them; nil when DB holds every suite (the session is then
	// scoped to them on DB itself). The function returned releases it.
	Rescope func(ctx context.Context, base, cand string) (*sql.DB, func(), error)
	In      io.Reader
	Out     io.Writer
}

// Run opens the dashboard and returns when the user quits.
func Run(ctx context.Context, o Options) error {
	m := New(ctx, o)
	defer m.follow.close() // after the backend has closed its session on the snapshot
	defer m.sh.be.close()
	opts := []tea.ProgramOption{tea.WithContext(ctx)}
	if o.In != nil {
		opts = append(opts, tea.WithInput(o.In))
	}
	if o.Out != nil {
		opts = append(opts, tea.WithOutput(o.Out))
	}
	_, err := tea.NewProgram(m, opts...).Run()
	return err
}

// Model is the root model: the tabs, the global keys, the suites loaded
// (through sh) and one model per view.
type Model struct {
	sh   *shared
	keys keyMap

	tab view
	// history is the views left to come here, the latest last: esc walks
	// back along it, as a browser's back button does.
	history      []view
	help         bool
	err          error
	quitWhenIdle bool
	// loadSeq numbers the loads of the suites (the first, then one per
	// refresh when following); loadShown is the one on screen, so an older
	// load answering late never replaces a newer one.
	loadSeq, loadShown int
	follow             *follower // nil unless Options.Follow
	exportSeq          int       // the export whose outcome the status line awaits
	exp                exportPrompt

	overview overviewView
	latency  latencyView
	errs     errorsView
	runs     runsView
	detail   detailView
	cmp      compareView
	sql      sqlView
	breakers breakerView
	pairV    pairView
	picker   suitesView
}

// New returns the dashboard model over o.DB.
func New(ctx context.Context, o Options) Model {
	noColor := o.NoColor || os.Getenv("NO_COLOR") != ""
	sh := &shared{
		ctx: ctx, be: &backend{db: o.DB, suites: scopeOf(o), list: o.Catalog, reopen: o.Rescope}, opts: o,
		styles: DefaultStyles(noColor), width: 80, height: 24,
		spin: spinner.New(spinner.WithSpinner(spinner.Line)),
	}
	m := Model{
		sh: sh, keys: defaultKeyMap(),
		overview: newOverviewView(sh), latency: newLatencyView(sh), errs: newErrorsView(sh),
		runs: newRunsView(sh), detail: newDetailView(sh), cmp: newCompareView(sh), sql: newSQLView(sh),
		breakers: newBreakerView(sh), pairV: newPairView(sh), picker: newSuitesView(sh),
		follow: newFollower(o.Follow),
	}
	m.broadcast(tea.WindowSizeMsg{Width: sh.width, Height: sh.height})
	m.loadSeq = 1
	sh.loading = 1 // the first load, started by Init
	return m
}

// Init starts loading the report.
func (m Model) Init() tea.Cmd {
	if m.loadShown > 0 {
		return m.sh.spin.Tick // resumed after its first load (tests)
	}
	load := loadCmd(m.sh.ctx, m.sh.be, m.loadSeq)
	if m.follow != nil {
		return tea.Batch(load, m.sh.spin.Tick, m.follow.tick())
	}
	return tea.Batch(load, m.sh.spin.Tick)
}

// doneLoad counts one answer in (kept or dropped as stale).
func (m *Model) doneLoad() tea.Cmd {
	if m.sh.loading > 0 {
		m.sh.loading--
	}
	if m.sh.loading == 0 && m.quitWhenIdle {
		return tea.Quit
	}
	return nil
}

// Update handles what is shared and routes the rest: answers to the view
// that asked, keys and the mouse to the view on screen.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if fm, c, ok := m.updateFollow(msg); ok {
		return fm, c
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.sh.width, m.sh.height = msg.Width, msg.Height
		return m, m.broadcast(msg)
	case spinner.TickMsg:
		var c tea.Cmd
		m.sh.spin, c = m.sh.spin.Update(msg)
		return m, c
	case quitWhenIdleMsg:
		m.quitWhenIdle = true
		if m.sh.loading == 0 {
			return m, tea.Quit
		}
		return m, nil
	case loadedMsg:
		return m, tea.Batch(m.loaded(msg), m.doneLoad())
	case rescopedMsg:
		if msg.err != nil {
			m.sh.status = "suites: " + safe(msg.err.Error())
			return m, m.doneLoad()
		}
		m.sh.opts.Baseline, m.sh.opts.Candidate = msg.base, msg.cand
		m.sh.verdict = nil
		m.sh.status = "comparing " + safe(msg.cand) + " with baseline " + safe(msg.base)
		r := m.reload() // counted before the rescope's answer is, so idle waits for it
		return m, tea.Batch(r, m.doneLoad())
	case exportedMsg:
		c := m.doneLoad()
		switch {
		case msg.seq != m.exportSeq:
			// An earlier export finishing late: the status says the latest.
		case msg.err != nil:
			m.sh.status = "export failed: " + msg.err.Error()
		default:
			m.sh.status = fmt.Sprintf("exported %d rows to %s", msg.rows, safe(msg.path))
		}
		return m, c
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.MouseWheelMsg:
		if m.help || m.focused() {
			return m, nil
		}
		return m, m.route(m.tab, msg)
	case tea.MouseClickMsg:
		return m, m.click(msg.Mouse())
	}
	if v, ok := ownerOf(msg); ok {
		c := m.route(v, msg)
		return m, tea.Batch(c, m.doneLoad())
	}
	return m, nil
}

// reload loads the suites again (after the picker changed them).
func (m *Model) reload() tea.Cmd {
	m.loadSeq++
	return m.sh.startLoad(loadCmd(m.sh.ctx, m.sh.be, m.loadSeq))
}

// loaded shows a load of the suites unless a newer one is on screen, and
// tells every view that the facts changed.
func (m *Model) loaded(msg loadedMsg) tea.Cmd {
	if msg.seq <= m.loadShown {
		return nil
	}
	m.loadShown = msg.seq
	m.sh.ov, m.err = msg.ov, msg.err
	if m.err != nil {
		return nil
	}
	var cmds []tea.Cmd
	for v := range nViews {
		cmds = append(cmds, m.route(v, factsMsg{onScreen: v == m.tab}))
	}
	return tea.Batch(cmds...)
}

func (m Model) handleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if msg.String() == "ctrl+c" {
		if m.tab == viewSQL && m.sql.running() {
			return m, m.route(m.tab, msg) // cancels the query; a second ctrl+c quits
		}
		return m, tea.Quit
	}
	if m.exp.open {
		return m.exportKey(msg)
	}
	// A focused input owns the keyboard: no key reaches a shortcut.
	if m.focused() {
		return m, m.route(m.tab, msg)
	}
	k := m.keys
	switch {
	case key.Matches(msg, k.Quit):
		return m, tea.Quit
	case key.Matches(msg, k.Help):
		m.help = !m.help
		return m, nil
	case m.help && key.Matches(msg, k.Back):
		m.help = false
		return m, nil
	case key.Matches(msg, k.NextTab):
		return m, m.switchTo((m.tab + 1) % nViews)
	case key.Matches(msg, k.PrevTab):
		return m, m.switchTo((m.tab + nViews - 1) % nViews)
	case key.Matches(msg, k.Export):
		m.startExport()
		return m, nil
	}
	for i, b := range k.Tabs {
		if key.Matches(msg, b) {
			return m, m.switchTo(view(i))
		}
	}
	if m.help {
		return m, nil
	}
	return m, m.route(m.tab, msg)
}

// click switches to the tab clicked on the tab bar, or hands the view a
// click on its body (a row under the cursor; a second click on the row
// under the cursor opens it, as enter does).
func (m *Model) click(ms tea.Mouse) tea.Cmd {
	if ms.Button != tea.MouseLeft || m.help || m.focused() {
		return nil
	}
	if ms.Y == 0 {
		if v, ok := m.tabAt(ms.X); ok {
			return m.switchTo(v)
		}
		return nil
	}
	if ms.Y > m.sh.bodyHeight() {
		return nil // the status line
	}
	return m.route(m.tab, clickMsg{x: ms.X, y: ms.Y - 1})
}

// switchTo shows view v and tells it so (the console focuses its input,
// the breakers load on a first visit); the detail with no run opens the
// run selected in the runs view.
func (m *Model) switchTo(v view) tea.Cmd {
	m.push(v)
	m.tab = v
	m.help = false
	if v == viewDetail && m.sh.ov != nil && m.detail.empty() {
		if id := m.runs.selectedID(); id != "" {
			return m.route(viewDetail, openRunMsg{id: id})
		}
	}
	return m.route(v, shownMsg{})
}

// maxHistory bounds the views esc can walk back through.
const maxHistory = 64

// push remembers the view on screen before v replaces it.
func (m *Model) push(v view) {
	if v == m.tab {
		return
	}
	m.history = append(m.history, m.tab)
	if len(m.history) > maxHistory {
		m.history = m.history[len(m.history)-maxHistory:]
	}
}

// back shows the view before this one; ok is false when there is none.
func (m *Model) back() bool {
	for len(m.history) > 0 {
		to := m.history[len(m.history)-1]
		m.history = m.history[:len(m.history)-1]
		if to != m.tab {
			m.tab = to
			return true
		}
	}
	return false
}

// resume returns the model ready to run in a new program (tests).
func (m Model) resume() Model {
	m.quitWhenIdle = false
	return m
}

// scopeOf is the suites the dashboard is limited to: both named suites when
// the user named both, else every suite.
func scopeOf(o Options) []string {
	if o.Baseline != "" && o.Candidate != "" {
		return []string{o.Baseline, o.Candidate}
	}
	return nil
}
