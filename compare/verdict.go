package compare

// The outcome of a comparison is numbers and the enums below. Deciding
// writes no words: the renderers (text, Markdown, HTML, JUnit and the
// dashboard) turn the enums and numbers into sentences, so a JSON consumer
// reads a code, never a phrase to parse.

// Verdict is what a row's comparison found.
type Verdict string

// The verdicts of a row.
const (
	// VerdictNoChange: no significant change; the difference is within
	// what noise explains.
	VerdictNoChange Verdict = "no_change"
	// VerdictSignificant: significant after Holm within the row's family;
	// the sign is Diff's.
	VerdictSignificant Verdict = "significant"
	// VerdictNotAfterHolm: the unadjusted interval excludes 0 but Holm
	// within the family does not reject (exploratory rows).
	VerdictNotAfterHolm Verdict = "not_significant_after_holm"
	// VerdictTooSmall: the samples cannot show a change at alpha
	// (MinDetectable says which could).
	VerdictTooSmall Verdict = "too_small"
	// VerdictNoData: one side has no denominator.
	VerdictNoData Verdict = "no_data"
	// VerdictBeyondMargin: a gated row with no baseline data whose
	// candidate is significantly beyond the gate's margin, in the direction
	// of Alternative.
	VerdictBeyondMargin Verdict = "beyond_margin"
	// VerdictObserved: a gated row decided on its observed change, untested.
	VerdictObserved Verdict = "observed"
	// VerdictZero and VerdictNotZero: a zero-tolerance gated rate, none
	// or some on the candidate side.
	VerdictZero    Verdict = "zero"
	VerdictNotZero Verdict = "not_zero"
)

// Outcome is a gate's result.
type Outcome string

// The outcomes of a gate.
const (
	OutcomePass Outcome = "pass"
	OutcomeFail Outcome = "fail"
	// OutcomeSkip: the gate could not be judged (SkipReason says why); it
	// does not fail the comparison.
	OutcomeSkip Outcome = "skip"
)

// SkipReason says why a gate was skipped.
type SkipReason string

// The reasons a gate is skipped.
const (
	// SkipNoRow: no compared row matches the gate's metric.
	SkipNoRow SkipReason = "no_row"
	// SkipConformanceMix: a fault-sensitive metric against a fault-free
	// baseline; the fault scenarios are judged by expectation conformance.
	SkipConformanceMix SkipReason = "conformance_mix"
	// SkipNoCandidateData: the candidate has no denominator.
	SkipNoCandidateData SkipReason = "no_candidate_data"
	// SkipTooFewSamples: fewer latency samples a side than
	// MinLatencySamples (the counts are BaseDen and CandDen).
	SkipTooFewSamples SkipReason = "too_few_samples"
	// SkipNoBaselineData: a must-not-increase gate without baseline data.
	SkipNoBaselineData SkipReason = "no_baseline_data"
	// SkipNoReference: an either-direction margin without baseline data.
	SkipNoReference SkipReason = "no_reference"
	// SkipNoSamples: the latency samples behind the row are not available.
	SkipNoSamples SkipReason = "no_samples"
	// SkipNoValue: one side has no value for the gate to compare.
	SkipNoValue SkipReason = "no_value"
)

// Method is how a gate was decided.
type Method string

// The methods of a gate.
const (
	// MethodZeroTolerance: a single occurrence on the candidate fails.
	MethodZeroTolerance Method = "zero_tolerance"
	// MethodNotIncrease: a one-sided test of an increase of the rate.
	MethodNotIncrease Method = "not_increase"
	// MethodMargin: no baseline data; the candidate against the margin.
	MethodMargin Method = "margin"
	// MethodTest: the change against max_change, with a one-sided test.
	MethodTest Method = "test"
	// MethodObserved: the observed change against max_change, no test.
	MethodObserved Method = "observed"
)

// Finding is what a judged gate found.
type Finding string

// The findings of a judged gate.
const (
	// FindingNone and FindingSome: zero tolerance, the candidate has none
	// or some.
	FindingNone Finding = "none"
	FindingSome Finding = "some"
	// FindingIncrease and FindingNoIncrease: a must-not-increase test
	// found a significant increase, or none.
	FindingIncrease   Finding = "significant_increase"
	FindingNoIncrease Finding = "no_significant_increase"
	// FindingWithin: the change is within max_change.
	FindingWithin Finding = "within"
	// FindingExceeds: the change exceeds max_change (and is significant
	// when the gate requires it).
	FindingExceeds Finding = "exceeds"
	// FindingNotSignificant: the change exceeds max_change but is not
	// significant, as the gate requires.
	FindingNotSignificant Finding = "exceeds_not_significant"
)
