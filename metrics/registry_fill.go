package metrics

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// metricsField maps the JSON name of each Rate field of Metrics to its
// index: the rates are reached by the name the registry gives them, so the
// struct holds the JSON layout and nothing else.
var metricsField = func() map[string]int {
	t := reflect.TypeFor[Metrics]()
	out := make(map[string]int, t.NumField())
	for i := range t.NumField() {
		if f := t.Field(i); f.Type == reflect.TypeFor[Rate]() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			out[name] = i
		}
	}
	return out
}()

// rate returns the field of m that holds the named rate, nil if none.
func (m *Metrics) rate(name string) *Rate {
	i, ok := metricsField[name]
	if !ok {
		return nil
	}
	return reflect.ValueOf(m).Elem().Field(i).Addr().Interface().(*Rate)
}

// Rates lists the rates with their JSON names in report order.
func (m *Metrics) Rates() []NamedRate {
	var out []NamedRate
	for _, d := range ReportedRates() {
		if r := m.rate(d.Name); r != nil {
			out = append(out, NamedRate{Name: d.Name, Rate: *r, Def: d})
		}
	}
	return out
}

// RatesIn lists the rates of one group in the order the text and HTML
// reports show them.
func (m *Metrics) RatesIn(g Group) []NamedRate {
	var out []NamedRate
	for _, d := range RatesIn(g) {
		if r := m.rate(d.Name); r != nil {
			out = append(out, NamedRate{Name: d.Name, Rate: *r, Def: d})
		}
	}
	return out
}

// initMetrics sets every rate to 0/0 so that a suite without tool calls (or
// stages with budgets) still reports those rates, as null; the rates that
// can be unknown say how many runs could not be judged (0), and a rate
// with reasons lists every reason.
func initMetrics(m *Metrics) {
	for _, d := range ReportedRates() {
		r := m.rate(d.Name)
		if r == nil {
			continue // TestRegistryMatchesMetrics names it
		}
		*r = Rate{}
		if d.Unknown {
			r.Unknown = new(int64(0))
		}
		if d.Reasons != nil {
			r.ByReason = make(map[string]int64, len(d.Reasons))
			for _, reason := range d.Reasons {
				r.ByReason[reason] = 0
			}
		}
	}
}

// fillRates copies the <rate>__<part> columns of a row of the rate SQL into
// m. A column the registry does not define is an error, not skipped: a rate
// added to the SQL alone would otherwise vanish from every report.
func fillRates(m *Metrics, row map[string]any) error {
	for col, v := range row {
		name, part, ok := strings.Cut(col, "__")
		if !ok {
			continue // suite, scenario and the other plain columns
		}
		d, ok := LookupRate(name)
		if !ok || !d.Reported {
			return fmt.Errorf("column %s: %q is not a reported rate in metrics/registry.go", col, name)
		}
		r := m.rate(name)
		if r == nil {
			return fmt.Errorf("column %s: metrics.Metrics has no field tagged json:%q", col, name)
		}
		switch {
		case part == "num":
			r.Num = asInt(v)
		case part == "den":
			r.Den = asInt(v)
		case part == "unknown" && d.Unknown:
			r.Unknown = new(asInt(v))
		case slices.Contains(d.Reasons, part):
			if r.ByReason == nil {
				r.ByReason = map[string]int64{}
			}
			r.ByReason[part] = asInt(v)
		default:
			return fmt.Errorf("column %s: rate %s defines no part %q (num, den, unknown or a reason)", col, name, part)
		}
		r.Rate = ratio(r.Num, r.Den)
	}
	return nil
}
