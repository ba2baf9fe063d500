package compare

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/faultlens/faultlens/textsafe"
)

// writeCSV writes one line per row; trace-derived cells go through
// textsafe.CSVCell so that a spreadsheet never runs them as formulas.
func writeCSV(w io.Writer, res *Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"scenario", "metric", "kind", "base_num", "base_den", "cand_num", "cand_den", "base", "cand",
		"diff", "lo", "hi", "p", "p_adj", "test", "significant", "verdict", "too_small", "min_detectable", "noise",
		"family", "alternative", "level"}); err != nil {
		return err
	}
	f := func(p *float64) string {
		if p == nil {
			return ""
		}
		return strconv.FormatFloat(*p, 'g', 6, 64)
	}
	for _, r := range res.Rows {
		if err := cw.Write([]string{textsafe.CSVCell(r.Scenario), textsafe.CSVCell(r.Metric), r.Kind,
			fmt.Sprint(r.BaseNum), fmt.Sprint(r.BaseDen), fmt.Sprint(r.CandNum), fmt.Sprint(r.CandDen),
			f(r.Base), f(r.Cand), f(r.Diff), f(r.Lo), f(r.Hi), f(r.P), f(r.PAdj), r.Test,
			strconv.FormatBool(r.Significant), string(r.Verdict), strconv.FormatBool(r.TooSmall), f(r.MinDetectable), f(r.Noise),
			r.Family, r.Alternative, strconv.FormatFloat(r.Level, 'g', 6, 64)}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
