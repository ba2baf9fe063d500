package metrics

import "io"

// closeQuietly closes what metrics only reads (rows whose Err is checked
// after the loop or whose error is already being returned, a connection or
// session after a failed setup): a failed close there cannot lose or change
// a figure, and the error that matters is the one being returned.
func closeQuietly(c io.Closer) { _ = c.Close() }
