package compare

import "fmt"

// skipText is the sentence of each skip reason.
var skipText = map[SkipReason]string{
	SkipNoRow:           "no data on both sides",
	SkipConformanceMix:  "not gated against a fault-free baseline (conformance mix): the faults move it by design; the fault scenarios are judged by expectation conformance",
	SkipNoCandidateData: "no data on the candidate side",
	SkipNoBaselineData:  "no data on the baseline side: an increase cannot be told",
	SkipNoReference:     "no data on the baseline side (an either-direction margin has no reference)",
	SkipNoSamples:       "latency samples not available",
	SkipNoValue:         "no value on one side",
}

// SkipText is the sentence a reviewer reads for a skip reason.
func SkipText(g GateResult) string {
	if g.SkipReason == SkipTooFewSamples {
		return fmt.Sprintf("too few samples to gate this quantile (%d and %d, need ≥ %d a side)",
			g.BaseDen, g.CandDen, MinLatencySamples(g.Metric))
	}
	if s, ok := skipText[g.SkipReason]; ok {
		return s
	}
	return string(g.SkipReason)
}

// GateText is the one line a reviewer reads for a gate: the observed
// change, its interval, the threshold, the test and its Holm-adjusted p,
// and what that means.
func GateText(g GateResult) string {
	if g.Outcome == OutcomeSkip {
		return SkipText(g)
	}
	unit := gateUnit(g.Gate, g.Kind)
	change := val(g.Change)
	switch g.Method {
	case MethodZeroTolerance:
		if g.Finding == FindingNone {
			return "candidate has none"
		}
		base := "baseline has none"
		if g.BaseDen == 0 {
			base = "baseline has no data"
		}
		return fmt.Sprintf("candidate has %s, must be 0 (%s)", countText(g), base)
	case MethodNotIncrease:
		what := "must not increase"
		if g.Gate.MustBeZero {
			what = fmt.Sprintf("baseline has %d of %d, so must not increase", g.BaseNum, g.BaseDen)
		}
		line := fmt.Sprintf("%s → %s: %s %s, p_adj %s (%s, one-sided)", rateText(g.BaseNum, g.BaseDen),
			rateText(g.CandNum, g.CandDen), fmtPP(change), ivText(g.Lo, g.Hi, g.Level, fmtPPBare), pText(g.PAdj), g.Test)
		if g.Finding == FindingIncrease {
			return line + "; significant increase (" + what + ")"
		}
		return line + "; not a significant increase (" + what + ")"
	case MethodMargin:
		from := "0"
		if g.Gate.Direction == "decrease" {
			from = "100%"
		}
		line := fmt.Sprintf("no baseline data, candidate %s against the margin: %s %s from %s %s vs threshold %s, p_adj %s (%s, one-sided)",
			rateText(g.CandNum, g.CandDen), g.Gate.Direction, unit(change), from, ivText(g.Lo, g.Hi, g.Level, unit),
			unit(*g.Gate.MaxChange), pText(g.PAdj), g.Test)
		switch g.Finding {
		case FindingWithin:
			return line + "; within"
		case FindingNotSignificant:
			return line + "; beyond the margin but not significantly"
		}
		return line + "; exceeds the margin"
	}
	line := fmt.Sprintf("%s %s %s vs threshold %s, p_adj %s (%s, %s)", g.Gate.Direction, unit(change),
		ivText(g.Lo, g.Hi, g.Level, unit), unit(*g.Gate.MaxChange), pText(g.PAdj), g.Test, g.Alternative)
	if g.Method == MethodObserved {
		line = fmt.Sprintf("%s %s vs threshold %s (observed change, no test)", g.Gate.Direction, unit(change), unit(*g.Gate.MaxChange))
	}
	switch g.Finding {
	case FindingWithin:
		return line + "; within"
	case FindingNotSignificant:
		return line + "; exceeds but is not significant"
	}
	if g.Gate.RequireSignificant {
		return line + "; exceeds and is significant"
	}
	return line + "; exceeds"
}

// VerdictText is a row's verdict in a few characters: "~" for no
// significant change, the signed change of a significant one.
func VerdictText(r Row) string {
	switch r.Verdict {
	case VerdictNoChange:
		return "~"
	case VerdictSignificant:
		return verdict(&r)
	case VerdictNotAfterHolm:
		return "~ (Holm)"
	case VerdictTooSmall:
		if r.MinDetectable == nil {
			return "too small"
		}
		if r.Kind == "rate" {
			return fmt.Sprintf("too small (detects ≥%.0fpp)", *r.MinDetectable*100)
		}
		return "too small (detects ≥" + msText(*r.MinDetectable) + ")"
	case VerdictNoData:
		return "no data"
	case VerdictBeyondMargin:
		if r.Alternative == "less" {
			return "< margin"
		}
		return "> margin"
	case VerdictObserved:
		return "observed"
	case VerdictZero:
		return "zero"
	case VerdictNotZero:
		return "not zero"
	}
	return string(r.Verdict)
}
