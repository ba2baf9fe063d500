package compare

import (
	"fmt"
	"math"
)

// msText prints a duration in ms with its unit and never an exponent:
// milliseconds below a second, seconds above.
func msText(v float64) string {
	a := math.Abs(v)
	switch {
	case math.IsNaN(v):
		return "n/a"
	case math.IsInf(v, 0):
		return fmt.Sprintf("%+.0f", v)
	case a >= 10000:
		return fmt.Sprintf("%.1fs", v/1000)
	case a >= 1000:
		return fmt.Sprintf("%.2fs", v/1000)
	case a >= 10 || a == 0:
		return fmt.Sprintf("%.0fms", v)
	}
	return fmt.Sprintf("%.1fms", v)
}

// signedMs is msText with a sign.
func signedMs(v float64) string {
	if (v >= 0 || math.IsNaN(v)) && !math.IsInf(v, 0) {
		return "+" + msText(v)
	}
	return msText(v)
}
