package bench

import (
	"io"
	"os"
)

// closeQuietly closes a database or session the bench opened to time a
// step after the step's result is in (or its error is being returned): a
// failed close changes no measured figure.
func closeQuietly(c io.Closer) { _ = c.Close() }

// removeQuietly deletes a scratch file or directory of the bench; one left
// behind costs disk only.
func removeQuietly(path string) { _ = os.RemoveAll(path) }
