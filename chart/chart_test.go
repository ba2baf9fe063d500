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
