package compare

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/faultlens/faultlens/metrics"
	"go.yaml.in/yaml/v3"
)

// DefaultGatesYAML is the shipped gates file.
//
//go:embed default-gates.yaml
var DefaultGatesYAML []byte

// Gates is a parsed gates file.
type Gates struct {
	// Alpha overrides the family-wise significance level when set.
	Alpha float64 `yaml:"alpha"`
	// Gates are the rules, in file order.
	Gates []Gate `yaml:"gates"`
}

// Gate is one rule on one metric key (or a glob of keys).
type Gate struct {
	// Metric is a metric key; "*" matches one dot-separated part.
	Metric string `yaml:"metric" json:"metric"`
	// MustBeZero requires the candidate's count to be 0 where the
	// baseline's is 0; where the baseline already has the defect the gate
	// becomes MustNotIncrease.
	MustBeZero bool `yaml:"must_be_zero" json:"must_be_zero,omitempty"`
	// MustNotIncrease fails on a significant increase of the rate (one
	// sided, in the gated family), whatever the baseline's count.
	MustNotIncrease bool `yaml:"must_not_increase" json:"must_not_increase,omitempty"`
	// MaxChange is the largest allowed change in Direction.
	MaxChange *float64 `yaml:"max_change" json:"max_change,omitempty"`
	// Direction is the bad direction: increase, decrease or either.
	Direction string `yaml:"direction" json:"direction,omitempty"`
	// Relative measures the change relative to the baseline value.
	Relative bool `yaml:"relative" json:"relative,omitempty"`
	// RequireSignificant fails the gate only on a significant change.
	RequireSignificant bool `yaml:"require_significant" json:"require_significant,omitempty"`
	// PerScenario applies the gate to every scenario's row as well as to
	// the whole run set (rates only: latency is compared overall).
	PerScenario bool `yaml:"per_scenario" json:"per_scenario,omitempty"`
}

// GateResult is the outcome of one gate on one metric: numbers and enums
// only; the renderers write the words (GateText).
type GateResult struct {
	// Gate is the rule, Metric the key it was applied to, Scenario the
	// scenario ("" for the whole run set), Kind the row's ("rate" or
	// "latency"; "" when no row matched).
	Gate     Gate   `json:"gate"`
	Metric   string `json:"metric"`
	Scenario string `json:"scenario"`
	Kind     string `json:"kind"`
	// Outcome is pass, fail or skip; SkipReason says why a gate was
	// skipped ("" otherwise).
	Outcome    Outcome    `json:"outcome"`
	SkipReason SkipReason `json:"skip_reason,omitempty"`
	// Method is how the gate was decided and Finding what it found ("" for
	// a skipped gate).
	Method  Method  `json:"method,omitempty"`
	Finding Finding `json:"finding,omitempty"`
	// Passed says Outcome is not fail and Skipped that it is skip: the
	// booleans of result version 1, kept for its consumers.
	Passed  bool `json:"passed"`
	Skipped bool `json:"skipped"`
	// BaseNum/BaseDen and CandNum/CandDen are the row's counts (for a
	// latency row the Den fields are the sample sizes).
	BaseNum int `json:"base_num"`
	BaseDen int `json:"base_den"`
	CandNum int `json:"cand_num"`
	CandDen int `json:"cand_den"`
	// Test names the test behind the decision ("zero tolerance" when a
	// single occurrence decides, "observed change" when no test was
	// needed) and Alternative its direction.
	Test        string `json:"test"`
	Alternative string `json:"alternative,omitempty"`
	// PAdj is the Holm-adjusted one-sided p-value within the gated family;
	// Significant says it is below alpha.
	PAdj        *float64 `json:"p_adj"`
	Significant bool     `json:"significant"`
	// Lo and Hi bound Change at Level, in the gate's terms.
	Lo    *float64 `json:"lo"`
	Hi    *float64 `json:"hi"`
	Level float64  `json:"level"`
	// Change is the measured change in the gate's terms (nil if none): a
	// rate difference, a relative change, or for zero tolerance the
	// candidate's count (ms for latency).
	Change *float64 `json:"change"`
}

// ParseGates reads a gates file strictly: unknown fields, unknown metrics
// and contradictory rules are errors.
func ParseGates(r io.Reader) (*Gates, error) {
	dec := yaml.NewDecoder(r)
	dec.KnownFields(true)
	var g Gates
	if err := dec.Decode(&g); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("gates file is empty")
		}
		return nil, fmt.Errorf("gates file: %w", err)
	}
	if len(g.Gates) == 0 {
		return nil, errors.New("gates file: no gates")
	}
	if g.Alpha < 0 || g.Alpha >= 1 {
		return nil, fmt.Errorf("gates file: alpha %v outside [0, 1)", g.Alpha)
	}
	for i := range g.Gates {
		if err := g.Gates[i].check(); err != nil {
			return nil, fmt.Errorf("gates file: gate %d (%s): %w", i+1, g.Gates[i].Metric, err)
		}
	}
	return &g, nil
}

// DefaultGates parses the shipped gates.
func DefaultGates() *Gates {
	g, err := ParseGates(bytes.NewReader(DefaultGatesYAML))
	if err != nil {
		panic(err)
	}
	return g
}

func (g *Gate) check() error {
	switch {
	case g.Metric == "":
		return errors.New("metric is required")
	case notCompared(g.Metric):
		return fmt.Errorf("%s is reported but not compared (it has no per-run count in metrics/registry.go), so no gate can judge it", g.Metric)
	case !knownMetric(g.Metric):
		return fmt.Errorf("unknown metric %q (rates: %s; latency: latency.<scope>.<name>.<queue|exec|wall>.<p50|p95>)",
			g.Metric, strings.Join(RateNames(), ", "))
	case rules(g) > 1:
		return errors.New("must_be_zero, must_not_increase and max_change exclude each other")
	case rules(g) == 0:
		return errors.New("needs must_be_zero: true, must_not_increase: true or max_change")
	case g.MustNotIncrease && !isRate(g.Metric):
		return errors.New("must_not_increase applies to rates only")
	case g.MaxChange != nil && *g.MaxChange < 0:
		return errors.New("max_change must not be negative")
	}
	switch g.Direction {
	case "":
		if g.MaxChange != nil {
			return errors.New("direction (increase, decrease or either) is required with max_change")
		}
	case "increase", "decrease", "either":
	default:
		return fmt.Errorf("direction %q: want increase, decrease or either", g.Direction)
	}
	return nil
}

func rules(g *Gate) int {
	n := 0
	for _, b := range []bool{g.MustBeZero, g.MustNotIncrease, g.MaxChange != nil} {
		if b {
			n++
		}
	}
	return n
}

func isRate(m string) bool { return !strings.HasPrefix(m, "latency.") }

// names reports whether any gate names key.
func (gs *Gates) names(key string) bool {
	for i := range gs.Gates {
		if gs.Gates[i].matches(key) {
			return true
		}
	}
	return false
}

// knownMetric accepts the compared rates of the registry and well-formed
// latency keys (globs allowed in the scope and name parts).
func knownMetric(m string) bool {
	if d, ok := metrics.LookupRate(m); ok {
		return d.CompareRow > 0
	}
	p := strings.Split(m, ".")
	if len(p) != 5 || p[0] != "latency" {
		return false
	}
	return (p[3] == "queue" || p[3] == "exec" || p[3] == "wall" || p[3] == "*") &&
		(p[4] == "p50" || p[4] == "p95" || p[4] == "*")
}

// notCompared reports whether m names a rate that only the report has.
func notCompared(m string) bool {
	d, ok := metrics.LookupRate(m)
	return ok && d.CompareRow == 0
}

// matches reports whether key is named by the gate's metric pattern.
func (g *Gate) matches(key string) bool {
	if g.Metric == key {
		return true
	}
	ok, _ := path.Match(strings.ReplaceAll(g.Metric, ".", "/"), strings.ReplaceAll(key, ".", "/"))
	return ok
}
