package store

// SetCompactHook lets the external tests watch each step of a rewrite.
func SetCompactHook(f func(step string)) { compactHook = f }

// SetOpenHook lets the external tests replace a file while it is opened.
func SetOpenHook(f func()) { openHook = f }

// The external tests' helpers are the internal tests' (helpers_test.go),
// so that both packages of tests share one definition.
var (
	MustClose = mustClose
	MustScan  = mustScan
	MustWrite = mustWrite
)
