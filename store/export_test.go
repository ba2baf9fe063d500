package store

// SetCompactHook lets the external tests watch each step of a rewrite.
func SetCompactHook(f func(step string)) { compactHook = f }
