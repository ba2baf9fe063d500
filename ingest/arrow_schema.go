package ingest

import (
	"bufio"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Arrow columns follow the contract: its field names, nested objects as
// structs, arrays of strings as lists. Timestamps are RFC 3339 strings or
// Arrow timestamps with a time zone.

var (
	aStr  = arrow.BinaryTypes.String
	aInt  = arrow.PrimitiveTypes.Int64
	aBool = arrow.FixedWidthTypes.Boolean
	aStrs = arrow.ListOf(arrow.BinaryTypes.String)
)

// timestampFields are the contract's timestamps; the canonical schema holds
// them as strings.
var timestampFields = map[string]bool{"ts": true, "enqueued_at": true, "started_at": true, "ended_at": true}

// requiredColumns every event has.
var requiredColumns = []string{"type", "run_id", "ts"}

func aStruct(fs ...arrow.Field) *arrow.StructType { return arrow.StructOf(fs...) }

func aField(name string, t arrow.DataType) arrow.Field {
	return arrow.Field{Name: name, Type: t, Nullable: true}
}

// CanonicalArrowSchema is the schema export writes: every contract field in
// contract order, timestamps as RFC 3339 UTC strings.
var CanonicalArrowSchema = arrow.NewSchema([]arrow.Field{
	aField("type", aStr), aField("run_id", aStr), aField("ts", aStr), aField("seq", aInt), aField("schema_version", aInt),
	aField("suite", aStr), aField("scenario", aStr),
	aField("fault", aStruct(aField("class", aStr), aField("kind", aStr), aField("target_tool", aStr),
		aField("expect", aStruct(aField("action", aStr), aField("terminal", aStr))))),
	aField("agent", aStruct(aField("name", aStr), aField("version", aStr))),
	aField("client_message_id", aStr),
	aField("caused_by", aStruct(aField("run_id", aStr), aField("cause", aStr))),
	aField("task", aStruct(aField("kind", aStr), aField("requires_current_evidence", aBool), aField("evidence_required", aInt), aField("min_grade", aStr))),
	aField("deadline_ms", aInt), aField("retry_budget", aInt), aField("stage_id", aStr), aField("stage", aStr), aField("attempt", aInt),
	aField("enqueued_at", aStr), aField("started_at", aStr), aField("ended_at", aStr),
	aField("outcome", aStr), aField("plan_valid", aBool),
	aField("failure", aStruct(aField("category", aStr), aField("retryable", aBool), aField("reason", aStr))),
	aField("visible_chars", aInt), aField("budget_ms", aInt),
	aField("call_id", aStr), aField("action_id", aStr), aField("recovery", aStr), aField("recovery_of", aStr),
	aField("tool", aStr), aField("tool_version", aStr), aField("tool_schema", aStr), aField("args_digest", aStr),
	aField("side_effect", aStr), aField("idempotency_key", aStr), aField("status", aStr),
	aField("error", aStruct(aField("code", aStr), aField("category", aStr), aField("retryable", aBool), aField("retry_after_ms", aInt),
		aField("side_effect_state", aStr), aField("message", aStr))),
	aField("circuit", aStr),
	aField("source", aStruct(aField("name", aStr), aField("grade", aStr), aField("fallback", aBool))),
	aField("evidence_ids", aStrs), aField("completed_scope", aStrs), aField("missing_scope", aStrs),
	aField("role", aStr), aField("evidence_id", aStr), aField("claim", aStr), aField("grade", aStr), aField("path", aStr),
	aField("terminal", aStr), aField("reason", aStr), aField("chunks_committed", aInt), aField("chunks_rejected", aInt),
	aField("disclosed_gaps", aBool), aField("degradations", aStrs),
}, nil)

// checkArrowSchema reports the first contract column that is missing though
// required, or whose Arrow type cannot hold the contract's type. Columns the
// contract does not name are kept (in events.extra), whatever their type.
func checkArrowSchema(sc *arrow.Schema) error {
	for _, name := range requiredColumns {
		if !sc.HasField(name) {
			return fmt.Errorf("missing required column %s", name)
		}
	}
	for _, want := range CanonicalArrowSchema.Fields() {
		idx := sc.FieldIndices(want.Name)
		if len(idx) > 1 {
			return fmt.Errorf("column %s appears %d times", want.Name, len(idx))
		}
		if len(idx) == 0 {
			continue
		}
		got := sc.Field(idx[0]).Type
		if err := checkArrowType(want.Name, want.Type, got, timestampFields[want.Name]); err != nil {
			return err
		}
	}
	return nil
}

// checkArrowType checks one column (or struct member, named by its dotted
// path) against the contract type want.
func checkArrowType(path string, want, got arrow.DataType, timestamp bool) error {
	if got.ID() == arrow.NULL {
		return nil // all null: absent everywhere
	}
	if d, ok := got.(*arrow.DictionaryType); ok {
		got = d.ValueType
	}
	bad := func(what string) error {
		return fmt.Errorf("column %s: Arrow type %s cannot hold %s", path, got, what)
	}
	switch {
	case timestamp:
		if ts, ok := got.(*arrow.TimestampType); ok {
			if ts.TimeZone == "" {
				return fmt.Errorf("column %s: Arrow type %s has no time zone (want an RFC 3339 string or a timestamp with a time zone)", path, got)
			}
			return nil
		}
		if !isArrowString(got) {
			return bad("a timestamp (an RFC 3339 string or a timestamp with a time zone)")
		}
	case want.ID() == arrow.STRING:
		if !isArrowString(got) {
			return bad("a string")
		}
	case want.ID() == arrow.INT64:
		if !arrow.IsInteger(got.ID()) {
			return bad("an integer")
		}
	case want.ID() == arrow.BOOL:
		if got.ID() != arrow.BOOL {
			return bad("a boolean")
		}
	case want.ID() == arrow.LIST:
		l, ok := got.(arrow.ListLikeType)
		if !ok || got.ID() == arrow.MAP {
			return bad("a list of strings")
		}
		if e := l.Elem(); e.ID() != arrow.NULL && !isArrowString(e) {
			return bad("a list of strings")
		}
	case want.ID() == arrow.STRUCT:
		gs, ok := got.(*arrow.StructType)
		if !ok {
			return bad("an object (struct)")
		}
		for _, wf := range want.(*arrow.StructType).Fields() {
			idx := gs.FieldIndices(wf.Name)
			if len(idx) > 1 {
				return fmt.Errorf("column %s.%s appears %d times", path, wf.Name, len(idx))
			}
			if len(idx) == 0 {
				continue
			}
			if err := checkArrowType(path+"."+wf.Name, wf.Type, gs.Field(idx[0]).Type, false); err != nil {
				return err
			}
		}
	}
	return nil
}

func isArrowString(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
		return true
	}
	return false
}

// WriteArrowFile writes canonical JSON lines (one event per line, as export
// writes them) to w as an Arrow IPC file of CanonicalArrowSchema.
func WriteArrowFile(w io.Writer, jsonl io.Reader) error {
	mem := memory.DefaultAllocator
	rd := array.NewJSONReader(bufio.NewReaderSize(jsonl, 1<<20), CanonicalArrowSchema,
		array.WithAllocator(mem), array.WithChunk(64<<10))
	defer rd.Release()
	fw, err := ipc.NewFileWriter(w, ipc.WithSchema(CanonicalArrowSchema), ipc.WithAllocator(mem))
	if err != nil {
		return err
	}
	for rd.Next() {
		if err := fw.Write(rd.RecordBatch()); err != nil {
			_ = fw.Close() // the write's error is the one to report
			return err
		}
	}
	if err := rd.Err(); err != nil {
		_ = fw.Close() // the read's error is the one to report
		return err
	}
	return fw.Close()
}
