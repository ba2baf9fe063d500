package compare

import (
	"encoding/xml"
	"fmt"
	"io"
)

type junitSuites struct {
	XMLName  xml.Name   `xml:"testsuites"`
	Name     string     `xml:"name,attr"`
	Tests    int        `xml:"tests,attr"`
	Failures int        `xml:"failures,attr"`
	Suites   []junitSet `xml:"testsuite"`
}

type junitSet struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	Out       string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// writeJUnit writes one test case per gate; failed gates are failures.
// encoding/xml escapes every trace-derived string.
func writeJUnit(w io.Writer, res *Result) error {
	set := junitSet{Name: fmt.Sprintf("faultlens compare %s vs %s", res.Baseline.Name, res.Candidate.Name)}
	for _, g := range res.Gates {
		c := junitCase{Name: gateLabel(g) + ": " + gateRule(g.Gate), Classname: "faultlens.gates", Out: GateText(g)}
		switch g.Outcome {
		case OutcomeFail:
			c.Failure = &junitFailure{Message: GateText(g), Type: "GateFailed", Text: GateText(g)}
			set.Failures++
		case OutcomeSkip:
			c.Skipped = &junitSkipped{Message: GateText(g)}
			set.Skipped++
		}
		set.Cases = append(set.Cases, c)
	}
	set.Tests = len(set.Cases)
	doc := junitSuites{Name: "faultlens", Tests: set.Tests, Failures: set.Failures, Suites: []junitSet{set}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
