package chart

import (
	"math"
	"strings"
	"testing"
)

// Labels come from traces: every chart escapes them.
func TestLabelsAreEscaped(t *testing.T) {
	evil := "<script>x</script>"
	nan := math.NaN()
	for name, svg := range map[string]string{
		"pairs":   string(Pairs([]Pair{{Label: evil, A: 1, B: nan}}, [2]string{"a", "b"}, Share)),
		"stacked": string(Stacked([]Series{{evil, Red}, {"b", Blue}}, []Stack{{Label: evil, Values: []float64{1, nan}}}, Count, 0)),
		"line":    string(Line([]Point{{evil, 0.5}, {evil, nan}, {evil, 0.7}}, Share)),
	} {
		if !strings.HasPrefix(svg, "<svg") || strings.Contains(svg, "<script") || !strings.Contains(svg, "&lt;script&gt;") {
			t.Errorf("%s: label not escaped or no svg: %.120s", name, svg)
		}
		if strings.Contains(svg, "NaN") {
			t.Errorf("%s: draws NaN", name)
		}
	}
}

func TestNothingToDraw(t *testing.T) {
	if Stacked(nil, nil, Count, 0) != noData || Line([]Point{{"a", math.NaN()}}, Share) != noData || Pairs(nil, [2]string{}, Share) != noData {
		t.Error("empty input should give the no-data paragraph")
	}
}

// A line breaks at a missing value instead of joining across it.
func TestLineBreaksAtGaps(t *testing.T) {
	svg := string(Line([]Point{{"a", 0.1}, {"b", math.NaN()}, {"c", 0.3}}, Share))
	i := strings.Index(svg, `<path d="`)
	d := svg[i+9 : i+9+strings.Index(svg[i+9:], `"`)]
	if strings.Count(d, "M") != 2 || strings.Contains(d, "L") {
		t.Errorf("path %q should be two separate moves", d)
	}
}

// One outlier clips a duration axis: the other bars keep their length,
// the outlier is drawn cut, marked, and its value printed; without an
// outlier nothing is clipped.
func TestOutlierClipsTheAxis(t *testing.T) {
	stacks := []Stack{{Label: "a", Values: []float64{100, 4000}}, {Label: "b", Values: []float64{0, 6000}}, {Label: "c", Values: []float64{1000, 360000}}}
	svg := string(Stacked([]Series{{"queue", Orange}, {"execution", Blue}}, stacks, Ms, 0))
	if !strings.Contains(svg, "scale clipped at 9.00s") || strings.Count(svg, `class="cut"`) != 1 || !strings.Contains(svg, ">361.0s<") {
		t.Errorf("outlier not clipped and marked: %s", svg)
	}
	// b's bar is 6000/9000 of the 270-pixel plot, not a sliver.
	if !strings.Contains(svg, `width="180.0" height="16"`) {
		t.Errorf("b's bar not drawn at 180 px: %s", svg)
	}
	even := string(Stacked([]Series{{"q", Orange}, {"e", Blue}}, stacks[:2], Ms, 0))
	if strings.Contains(even, "clipped") || strings.Contains(even, `class="cut"`) {
		t.Errorf("clipped without an outlier: %s", even)
	}
	pairs := string(Pairs([]Pair{{Label: "x", A: 10, B: 20}, {Label: "y", A: 15, B: 1000}}, [2]string{"a", "b"}, Ms))
	if !strings.Contains(pairs, "scale clipped at 30ms") || strings.Count(pairs, `class="cut"`) != 1 {
		t.Errorf("pairs outlier not clipped: %s", pairs)
	}
}

// The y axis of a share starts at 0 and values that differ print
// differently; x labels are thinned so that 90 nights do not smear.
func TestLineAxes(t *testing.T) {
	svg := string(Line([]Point{{"a", 0.995}, {"b", 1}, {"c", 0.97}}, Share))
	for _, want := range []string{`class="ytick" x="52" y="146.0" font-size="10" text-anchor="end">0%<`, ">99.5%<", ">100.0%<", ">97.0%<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("no %s in %s", want, svg)
		}
	}
	for _, c := range []struct{ n, labels int }{{3, 3}, {9, 3}, {30, 3}, {90, 3}} {
		pts := make([]Point, c.n)
		for i := range pts {
			pts[i] = Point{Label: "2026-11-01  night-01", Value: 0.5}
		}
		if got := strings.Count(string(Line(pts, Share)), `class="xlabel"`); got != c.labels {
			t.Errorf("%d points: %d x labels, want %d", c.n, got, c.labels)
		}
	}
}
