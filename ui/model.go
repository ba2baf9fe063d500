// Package ui is faultlens's interactive terminal dashboard (bubbletea v2).
// The root Model owns the child views and routes typed messages to them;
// all I/O happens in tea.Cmds built in messages.go over the backend.
package ui

import (
	"context"
	"database/sql"
	"io"
	"os"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
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
	nViews
)

var viewNames = [nViews]string{"Overview", "Latency", "Errors", "Runs", "Run detail", "Compare", "SQL", "Breakers", "Pair"}

// Options configure the dashboard.
type Options struct {
	DB                  *sql.DB // the ingested traces
	Baseline, Candidate string  // suite names; "" picks baseline/candidate or the first two
	ExportDir           string  // where e writes Markdown; "" is the working directory
	NoColor             bool
	Follow              *Follow // refresh as the database file grows; nil: never
	In                  io.Reader
	Out                 io.Writer
}

// Run opens the dashboard and returns when the user quits.
func Run(ctx context.Context, o Options) error {
	m := New(ctx, o)
	defer m.follow.close() // after the backend has closed its session on the snapshot
	defer m.be.close()
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

// Model is the root model: it owns every view.
type Model struct {
	ctx    context.Context
	be     *backend
	opts   Options
	keys   keyMap
	styles Styles

	width, height int
	tab, prevTab  view
	help          bool
	loading       int
	spin          spinner.Model
	status        string
	err           error
	quitWhenIdle  bool

	ov       *overview
	scroll   [nViews]int
	runs     runsView
	detail   detailView
	sql      sqlView
	cmp      compareView
	cmpKeys  compareKeys
	breakers breakerView
	brKeys   breakerKeys
	pairV    pairView
	follow   *follower // nil unless Options.Follow
}

// New returns the dashboard model over o.DB.
func New(ctx context.Context, o Options) Model {
	noColor := o.NoColor || os.Getenv("NO_COLOR") != ""
	m := Model{
		ctx: ctx, be: &backend{db: o.DB, suites: scopeOf(o)}, opts: o,
		keys: defaultKeyMap(), styles: DefaultStyles(noColor),
		cmpKeys: newCompareKeys(), brKeys: newBreakerKeys(),
		width: 80, height: 24,
		spin: spinner.New(spinner.WithSpinner(spinner.Line)),
	}
	m.loading = 1 // the report, started by Init
	m.runs = newRunsView()
	m.sql = newSQLView()
	m.follow = newFollower(o.Follow)
	m.sql.input.setWidth(m.width)
	m.runs.input.setWidth(m.width - runsFilterAt)
	return m
}

// Init starts loading the report.
func (m Model) Init() tea.Cmd {
	if m.ov != nil {
		return m.spin.Tick // resumed with its data (tests)
	}
	if m.follow != nil {
		return tea.Batch(loadCmd(m.ctx, m.be), m.spin.Tick, m.follow.tick())
	}
	return tea.Batch(loadCmd(m.ctx, m.be), m.spin.Tick)
}

func (m *Model) startLoad(c tea.Cmd) tea.Cmd {
	m.loading++
	return c
}

func (m *Model) doneLoad() tea.Cmd {
	if m.loading > 0 {
		m.loading--
	}
	if m.loading == 0 && m.quitWhenIdle {
		return tea.Quit
	}
	return nil
}

// Update routes messages.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if fm, c, ok := m.updateFollow(msg); ok {
		return fm, c
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.sql.input.setWidth(m.width)
		m.runs.input.setWidth(m.width - runsFilterAt)
		return m, nil
	case spinner.TickMsg:
		var c tea.Cmd
		m.spin, c = m.spin.Update(msg)
		return m, c
	case quitWhenIdleMsg:
		m.quitWhenIdle = true
		if m.loading == 0 {
			return m, tea.Quit
		}
		return m, nil
	case loadedMsg:
		m.ov, m.err = msg.ov, msg.err
		var runs, cmp tea.Cmd
		if m.err == nil {
			runs = m.reloadRuns()
			if b, c := m.pair(); b != nil && c != nil {
				m.cmp.base, m.cmp.cand = b.Suite, c.Suite
				cmp = m.startLoad(compareCmd(m.ctx, m.be, b.Suite, c.Suite))
			}
		}
		// New facts (the first load, or a refresh when following) make
		// the breakers stale: drop them and any answer in flight, and load
		// them now if they are on screen, else on the next visit.
		m.breakers = breakerView{seq: m.breakers.seq + 1}
		var brk tea.Cmd
		if m.err == nil && m.tab == viewBreakers {
			brk = m.loadBreakers()
		}
		return m, tea.Batch(runs, cmp, brk, m.doneLoad())
	case compareMsg:
		m.cmp.apply(msg)
		return m, m.doneLoad()
	case breakersMsg:
		m.breakers.apply(msg)
		return m, m.doneLoad()
	case pairMsg:
		m.pairV.apply(msg)
		return m, m.doneLoad()
	case runsMsg:
		m.runs.apply(msg)
		return m, m.doneLoad()
	case detailMsg:
		m.detail.apply(msg)
		return m, m.doneLoad()
	case sqlMsg:
		m.sql.apply(msg)
		return m, m.doneLoad()
	case exportedMsg:
		c := m.doneLoad()
		if msg.err != nil {
			m.status = "export failed: " + msg.err.Error()
		} else {
			m.status = "exported to " + msg.path
		}
		return m, c
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.MouseWheelMsg:
		return m.wheel(msg)
	}
	return m, nil
}

func (m Model) handleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	// A focused input owns the keyboard: no key reaches a shortcut.
	if msg.String() == "ctrl+c" {
		return m, tea.Quit
	}
	if f := m.focusedField(); f != nil {
		return m.fieldKey(msg)
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
		return m.switchTo((m.tab + 1) % nViews)
	case key.Matches(msg, k.PrevTab):
		return m.switchTo((m.tab + nViews - 1) % nViews)
	case key.Matches(msg, k.Export):
		name := strings.ToLower(strings.ReplaceAll(viewNames[m.tab], " ", "-"))
		md := "# faultlens: " + viewNames[m.tab] + "\n\n```text\n" + ansi.Strip(m.body()) + "\n```\n"
		return m, m.startLoad(exportCmd(m.opts.ExportDir, name, md, time.Now()))
	}
	for i, b := range k.Tabs {
		if key.Matches(msg, b) {
			return m.switchTo(view(i))
		}
	}
	// Each view owns the rest of the keys.
	switch m.tab {
	case viewRuns:
		return m.runsKey(msg)
	case viewCompare:
		return m.compareKey(msg)
	case viewBreakers:
		return m.breakerKey(msg)
	case viewDetail:
		return m.detailKey(msg)
	case viewSQL:
		return m.sqlKey(msg)
	}
	return m.scrollKey(msg)
}

// scrollKey is the keys of a view that is one scrolled body (overview,
// latency, errors, pair, and the detail's body): j/k, pages, esc back.
func (m Model) scrollKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	if key.Matches(msg, k.Back) && m.tab != viewOverview {
		return m.switchTo(m.prevTab)
	}
	switch {
	case key.Matches(msg, k.Down):
		m.scrollBy(1)
	case key.Matches(msg, k.Up):
		m.scrollBy(-1)
	case key.Matches(msg, k.PageDown):
		m.scrollBy(m.bodyHeight())
	case key.Matches(msg, k.PageUp):
		m.scrollBy(-m.bodyHeight())
	}
	return m, nil
}

// wheelStep is how many lines one notch of the mouse wheel scrolls a view.
const wheelStep = 3

// wheel scrolls the current view: the cursor of the runs, compare and
// breaker views and the SQL result move one row per notch (as j/k do),
// every other view wheelStep lines.
func (m Model) wheel(msg tea.MouseWheelMsg) (tea.Model, tea.Cmd) {
	up := msg.Mouse().Button == tea.MouseWheelUp
	if !up && msg.Mouse().Button != tea.MouseWheelDown {
		return m, nil
	}
	if m.help || m.focusedField() != nil {
		return m, nil
	}
	k := tea.KeyPressMsg{Code: tea.KeyDown}
	if up {
		k = tea.KeyPressMsg{Code: tea.KeyUp}
	}
	switch m.tab {
	case viewRuns:
		return m.runsKey(k)
	case viewCompare:
		return m.compareKey(k)
	case viewBreakers:
		return m.breakerKey(k)
	case viewSQL:
		if up {
			m.sql.scroll = max(0, m.sql.scroll-wheelStep)
		} else if m.sql.res != nil {
			m.sql.scroll = min(m.sql.scroll+wheelStep, max(0, len(m.sql.res.rows)-1))
		}
		return m, nil
	}
	if up {
		m.scrollBy(-wheelStep)
	} else {
		m.scrollBy(wheelStep)
	}
	return m, nil
}

func (m Model) switchTo(v view) (tea.Model, tea.Cmd) {
	if v != m.tab {
		m.prevTab = m.tab
	}
	m.tab = v
	m.help = false
	if v == viewSQL {
		return m, m.sql.input.focus() // what a person types first is the query
	}
	if v == viewBreakers && m.breakers.t == nil && m.breakers.err == nil && !m.breakers.loading && m.ov != nil {
		return m, m.loadBreakers()
	}
	if v == viewDetail && m.detail.d == nil && m.detail.err == nil {
		if id := m.runs.selectedID(); id != "" {
			m.detail.loading = id
			return m, m.startLoad(detailCmd(m.ctx, m.be, id))
		}
	}
	return m, nil
}

// bodyHeight is the number of lines between the tab bar and the status line.
func (m Model) bodyHeight() int {
	return max(3, m.height-3)
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
