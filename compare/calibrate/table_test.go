package calibrate

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// cells is a hand-built calibration result: an A/A case with one refusal
// and a detection case whose change is a count of runs.
func cells() []Cell {
	return []Cell{
		{Case: "aa", AA: true, Runs: 100, Pairs: 50, Failed: 2, Refused: 1, Rate: 0.04, Lo: 0.011, Hi: 0.135,
			Change: -0.0012, Gates: map[string]int{"success": 1, "masked_success": 1}},
		{Case: "masked", Runs: 300, Pairs: 50, Failed: 50, Rate: 1, Lo: 0.929, Hi: 1, Change: 12.5, Counts: true,
			Gates: map[string]int{"masked_success": 50}},
		{Case: "nodata", Runs: 100, Pairs: 0, Rate: math.NaN(), Change: math.NaN()},
	}
}

func TestWriteTableText(t *testing.T) {
	var b strings.Builder
	if err := WriteTable(&b, cells(), false); err != nil {
		t.Fatal(err)
	}
	want := `case    runs/side  pairs  gate failed     rate [95% CI]         reads as      mean observed change  
aa      100        50     2 (+1 refused)  4.0% [1.1, 13.5]      false alarms  -0.1%                 
masked  300        50     50              100.0% [92.9, 100.0]  detection     12.5 runs             
nodata  100        0      0               NaN% [0.0, 0.0]       detection     -                     
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestWriteTableMarkdown(t *testing.T) {
	var b strings.Builder
	if err := WriteTable(&b, cells()[:1], true); err != nil {
		t.Fatal(err)
	}
	want := "| case | runs/side | pairs | gate failed | rate [95% CI] | reads as | mean observed change |\n" +
		"| --- | --- | --- | --- | --- | --- | --- |\n" +
		"| aa | 100 | 50 | 2 (+1 refused) | 4.0% [1.1, 13.5] | false alarms | -0.1% |\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestWriteGates(t *testing.T) {
	var b strings.Builder
	if err := WriteGates(&b, cells()); err != nil {
		t.Fatal(err)
	}
	want := "aa @100: masked_success 1, success 1\nmasked @300: masked_success 50\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

type failingWriter struct{}

var errDiskFull = errors.New("disk full")

func (failingWriter) Write([]byte) (int, error) { return 0, errDiskFull }

// A failing writer is an error, never a table silently lost.
func TestTablesReturnWriterError(t *testing.T) {
	for name, err := range map[string]error{
		"text":     WriteTable(failingWriter{}, cells(), false),
		"markdown": WriteTable(failingWriter{}, cells(), true),
		"gates":    WriteGates(failingWriter{}, cells()),
	} {
		if !errors.Is(err, errDiskFull) {
			t.Errorf("%s: error %v, want %v", name, err, errDiskFull)
		}
	}
}
