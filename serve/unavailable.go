package serve

import (
	"context"
	"errors"
	"syscall"

	"github.com/faultlens/faultlens/store"
)

// retryable reports whether a failure to store is the database's state
// rather than the request's content, so that the exporter is answered 503
// and sends the request again later: the file is locked by another
// process, the disk or temp directory is full, memory ran out, or the file
// or its file system is read-only. A 500 is not retried by OTLP exporters,
// and these requests are fine. The causes are the store's types
// (store.Typed reads DuckDB's words in one place); the errno checks cover
// errors that never passed through DuckDB.
func retryable(err error) bool {
	switch {
	case err == nil:
		return false
	case errors.Is(err, store.ErrLocked), errors.Is(err, errClosed),
		errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EROFS),
		errors.Is(err, syscall.EDQUOT), errors.Is(err, syscall.EACCES):
		return true
	}
	return store.IsEnvironment(store.Typed(err))
}
