package ui

import (
	"context"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/faultlens/faultlens/compare"
	"github.com/faultlens/faultlens/metrics"
)

// shared is what every view reads and the root model owns: the loaded
// suites, the screen's size, the styles, the door to the data and the count
// of requests in flight. Each view holds a pointer to the one instance, as
// gh-dash's sections hold its ProgramContext, so a resize or a refresh
// reaches every view without the root copying anything into them.
type shared struct {
	ctx    context.Context
	be     *backend
	opts   Options
	styles Styles

	width, height int
	spin          spinner.Model
	ov            *overview // nil until the first load

	loading int    // requests in flight; each answer lowers it by one
	status  string // the last notice for the status line

	// nav is where a view asked to go: the root reads it right after the
	// view's Update, so a key typed just after enter already meets the view
	// it opened (a navigation message would arrive after it).
	nav *navigation
	// pick is a pair of suites (baseline, candidate) the picker chose: the
	// root starts copying them right after the picker's Update.
	pick *[2]string
	// verdict is the compare engine's judgement of the pair on screen, as
	// the compare view last received it (nil until then): the overview
	// opens with it.
	verdict *compare.Result
}

// navigation is a view's request to show another view.
type navigation struct {
	to     view              // viewDetail, viewPair or viewRuns; ignored when back
	back   bool              // return to the previous view
	runID  string            // the run to open or pair
	filter metrics.RunFilter // pair: the first run matching it (runID ""); runs: the drill
	what   string            // what is being paired, while it loads
}

// startLoad counts a request in flight; the root lowers the count when its
// answer arrives, whether the view keeps the answer or drops it as stale.
func (s *shared) startLoad(c tea.Cmd) tea.Cmd {
	s.loading++
	return c
}

// goTo asks the root to show another view once the current Update returns.
func (s *shared) goTo(n navigation) { s.nav = &n }

// bodyHeight is the number of lines between the tab bar and the status line.
func (s *shared) bodyHeight() int {
	return max(3, s.height-3)
}

// pair returns the baseline and candidate suites to show (either may be nil).
func (s *shared) pair() (*metrics.Suite, *metrics.Suite) {
	if s.ov == nil {
		return nil, nil
	}
	ss := s.ov.report.Suites
	find := func(name string) *metrics.Suite {
		for i := range ss {
			if ss[i].Suite == name {
				return &ss[i]
			}
		}
		return nil
	}
	bn, cn := s.opts.Baseline, s.opts.Candidate
	if bn == "" {
		bn = "baseline"
	}
	if cn == "" {
		cn = "candidate"
	}
	b, c := find(bn), find(cn)
	if b == nil && c == nil && len(ss) > 0 {
		b = &ss[0]
		if len(ss) > 1 {
			c = &ss[1]
		}
	}
	return b, c
}

// suites lists the suites of pair that exist.
func (s *shared) suites() []*metrics.Suite {
	var out []*metrics.Suite
	b, c := s.pair()
	for _, x := range []*metrics.Suite{b, c} {
		if x != nil {
			out = append(out, x)
		}
	}
	return out
}

// filterValues are the scenarios and error classes fetched with the report.
func (s *shared) filterValues() metrics.FilterValues {
	if s.ov == nil {
		return metrics.FilterValues{}
	}
	return s.ov.filters
}
