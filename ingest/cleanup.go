package ingest

import (
	"context"
	"database/sql"
	"io"
	"os"

	"github.com/faultlens/faultlens/queries"
)

// closeQuietly closes c where a close error cannot lose data: a connection
// whose work is committed or rolled back by then, a file only read, rows
// whose Err was checked after the loop.
func closeQuietly(c io.Closer) { _ = c.Close() }

// removeTemp deletes a temporary file of ingest's; one left behind costs
// only disk, never a wrong result.
func removeTemp(path string) { _ = os.Remove(path) }

// dropTemp drops the temporary tables of one file's ingest. The connection
// is closed right after, which drops them too, so a failure here leaves
// nothing behind.
func dropTemp(ctx context.Context, conn *sql.Conn) {
	_, _ = conn.ExecContext(context.WithoutCancel(ctx), queries.Get("ingest.drop_temp"))
}
