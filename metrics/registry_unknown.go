package metrics

import "strings"

// UnknownBecause says why a rate has no value to show, "" when it has one:
// its denominator is empty, or no run of it could be judged (a plan
// validity over runs none of which has a planning stage). Such a rate reads
// as unknown with this reason, never as 0 %.
func (nr NamedRate) UnknownBecause() string {
	switch r := nr.Rate; {
	case r.Den == 0:
		return nr.Def.emptyWhy()
	case r.Unknown != nil && *r.Unknown >= r.Den:
		if nr.Def.UnknownWhy != "" {
			return nr.Def.UnknownWhy
		}
		return "no run could be judged"
	}
	return ""
}

func (d RateDef) emptyWhy() string {
	switch {
	case d.Empty != "":
		return d.Empty
	case d.Of != "":
		return "no " + d.Of
	}
	return "empty denominator"
}

// ReasonLabel names one of the rate's reasons for people: a reason that is
// a gate (those of unverified_completion) says why that gate was unknown.
func (d RateDef) ReasonLabel(reason string) string {
	if g, ok := LookupRate(reason); ok && g.UnknownWhy != "" {
		return g.UnknownWhy
	}
	return reason
}

// ReasonsText lists, in registry order and for people, the reasons that
// occurred ("no task or evidence recorded, no planning stage").
func (nr NamedRate) ReasonsText() string {
	var out []string
	for _, r := range nr.Def.Reasons {
		if nr.Rate.ByReason[r] > 0 {
			out = append(out, nr.Def.ReasonLabel(r))
		}
	}
	return strings.Join(out, ", ")
}

// Named returns the named rate of m with its definition; ok is false when
// the registry has no reported rate of that name.
func (m *Metrics) Named(name string) (NamedRate, bool) {
	d, ok := LookupRate(name)
	r := m.rate(name)
	if !ok || r == nil {
		return NamedRate{}, false
	}
	return NamedRate{Name: name, Rate: *r, Def: d}, true
}
