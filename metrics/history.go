package metrics

import (
	"context"
	"database/sql"
	"math"
)

// Trend is each of some rate metrics across every suite of a database, the
// suites in the order of their earliest run: the nightly trend.
type Trend struct {
	// Suites are the x axis, oldest first.
	Suites []SuiteStart
	// Metrics names the rates, in the order asked for.
	Metrics []string
	// Values[i][j] is metric i's rate in suite j; NaN when the suite has no
	// value for it (a rate without a denominator).
	Values [][]float64
}

// History reads the rates named by metrics (RateNames when empty) of
// every suite of db, one suite at a time from the per-suite report cache
// where ingest wrote it, so that thirty nights cost thirty cache rows.
func History(ctx context.Context, db *sql.DB, metrics []string) (*Trend, error) {
	if len(metrics) == 0 {
		metrics = RateNames()
	}
	order, err := SuitesByDate(ctx, db)
	if err != nil {
		return nil, err
	}
	rep, err := ReportBySuite(ctx, db, Options{})
	if err != nil {
		return nil, err
	}
	bySuite := map[string]Metrics{}
	for _, st := range rep.Suites {
		bySuite[st.Suite] = st.Metrics
	}
	h := &Trend{Suites: order, Metrics: metrics, Values: make([][]float64, len(metrics))}
	for i, name := range metrics {
		h.Values[i] = make([]float64, len(order))
		for j, st := range order {
			h.Values[i][j] = rateOf(bySuite[st.Suite], name)
		}
	}
	return h, nil
}

// rateOf is the named rate of m, NaN when m has none.
func rateOf(m Metrics, name string) float64 {
	v := math.NaN()
	for _, r := range m.Rates() {
		if r.Name == name && r.Rate.Rate != nil {
			v = *r.Rate.Rate
		}
	}
	return v
}
