package metrics

import (
	"fmt"
	"math/big"
)

// asInt converts a scanned DuckDB integer to int64; NULL is 0.
func asInt(v any) int64 {
	switch x := v.(type) {
	case nil:
		return 0
	case int64:
		return x
	case int32:
		return int64(x)
	case int16:
		return int64(x)
	case int8:
		return int64(x)
	case uint32:
		return int64(x)
	case uint16:
		return int64(x)
	case uint8:
		return int64(x)
	case uint64:
		return int64(x)
	case int:
		return int64(x)
	case *big.Int:
		return x.Int64()
	case float64:
		return int64(x)
	}
	panic(fmt.Sprintf("metrics: unexpected integer type %T", v))
}

// asFloat converts a scanned number to *float64; NULL is nil.
func asFloat(v any) *float64 {
	var f float64
	switch x := v.(type) {
	case nil:
		return nil
	case float64:
		f = x
	case float32:
		f = float64(x)
	default:
		f = float64(asInt(v))
	}
	return &f
}

// asString converts a scanned VARCHAR; NULL is "".
func asString(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// ratio is num/den, or nil when den is 0.
func ratio(num, den int64) *float64 {
	if den == 0 {
		return nil
	}
	r := float64(num) / float64(den)
	return &r
}

// quantiles reads a list of four quantiles [p50 p90 p95 p99] and a max.
func quantiles(list, top any) Quantiles {
	var q Quantiles
	if l, ok := list.([]any); ok && len(l) == 4 {
		q.P50, q.P90, q.P95, q.P99 = asFloat(l[0]), asFloat(l[1]), asFloat(l[2]), asFloat(l[3])
	}
	q.Max = asFloat(top)
	return q
}
