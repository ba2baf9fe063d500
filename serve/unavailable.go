package serve

import (
	"context"
	"errors"
	"strings"
	"syscall"

	"github.com/faultlens/faultlens/store"
)

// retryable reports whether a failure to store is the database's state
// rather than the request's content, so that the exporter is answered 503
// and sends the request again later: the file is locked by another
// process, the disk is full, or the file or its file system is read-only.
// A 500 is not retried by OTLP exporters, and these requests are fine.
//
// The store and ingest packages do not classify these causes as types yet,
// so this looks at the errno where the error chain keeps one and at the
// operating system's and DuckDB's words where DuckDB only kept its message.
// When the store's errors carry typed causes this becomes errors.Is on
// them.
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
	msg := strings.ToLower(err.Error())
	for _, s := range unavailableWords {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// unavailableWords are the messages of the retryable causes as the
// operating system (through DuckDB) and DuckDB word them.
var unavailableWords = []string{
	"no space left on device",
	"disk quota exceeded",
	"read-only file system",
	"permission denied",
	"read-only mode",
	"database is in read-only",
	"could not set lock on file",
}
