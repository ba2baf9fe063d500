package metrics

import "time"

// interner shares the repeated values of one evidence scan: a suite's
// samples repeat a handful of scopes, names, classes and outcomes, so one
// copy of each (and one pointer per distinct optional value) is kept. Run
// ids are not interned: a map of tens of thousands of them cost more CPU
// (cache misses) than all the rest of the scan. The values behind shared
// pointers are never written to.
type interner struct {
	strs  map[string]string
	opts  map[string]*string
	bools [2]*bool
	slab  []float64
}

func newInterner() *interner {
	t, f := true, false
	return &interner{strs: map[string]string{}, opts: map[string]*string{}, bools: [2]*bool{&f, &t}}
}

// str returns the one copy of v (a repeated value: scope, name, class).
func (in *interner) str(v string) string {
	if s, ok := in.strs[v]; ok {
		return s
	}
	in.strs[v] = v
	return v
}

// optStr is a shared pointer to v, nil for NULL.
func (in *interner) optStr(v any) *string {
	if v == nil {
		return nil
	}
	s, ok := v.(string)
	if !ok {
		return optStr(v)
	}
	if p, ok := in.opts[s]; ok {
		return p
	}
	p := &s
	in.opts[s] = p
	return p
}

// optBool is a shared pointer to v, nil for NULL.
func (in *interner) optBool(v any) *bool {
	b, ok := v.(bool)
	if !ok {
		return nil
	}
	if b {
		return in.bools[1]
	}
	return in.bools[0]
}

// slabSize is how many float64 one allocation holds.
const slabSize = 4096

// float is a pointer to a copy of v (nil for NULL) from a slab: one
// allocation per slabSize values instead of one per value.
func (in *interner) float(v any) *float64 {
	var f float64
	switch x := v.(type) {
	case nil:
		return nil
	case float64:
		f = x
	default:
		f = *asFloat(v)
	}
	if len(in.slab) == cap(in.slab) {
		in.slab = make([]float64, 0, slabSize)
	}
	in.slab = append(in.slab, f)
	return &in.slab[len(in.slab)-1]
}

// str of a scanned value: NULL is "".
func (in *interner) strOf(v any) string {
	if s, ok := v.(string); ok {
		return in.str(s)
	}
	return in.str(asString(v))
}

// timeOf is a pointer to a scanned TIMESTAMP, nil for NULL.
func timeOf(v any) *time.Time {
	t, ok := v.(time.Time)
	if !ok {
		return nil
	}
	return &t
}
