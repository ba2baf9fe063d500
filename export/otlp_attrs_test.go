package export

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/faultlens/faultlens/internal/testdb"
)

// The exporter's list of contract fields is the events table's columns:
// a column added to queries/schema.sql without it would have its values
// exported twice (as a column and as an "unknown" field).
func TestContractFieldsAreTheColumns(t *testing.T) {
	db := testdb.Store(t)
	rows, err := db.QueryContext(context.Background(),
		"SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'events' ORDER BY ordinal_position")
	if err != nil {
		t.Fatal(err)
	}
	defer testdb.CloseOK(t, rows)
	var cols []string
	for rows.Next() {
		var name, typ string
		if err := rows.Scan(&name, &typ); err != nil {
			t.Fatal(err)
		}
		if name == "file_id" || name == "extra" {
			continue
		}
		cols = append(cols, name)
		if !contractFields[name] {
			t.Errorf("column %s (%s) is not among the exporter's contract fields", name, typ)
		}
		if _, isObj := contractObjects[name]; isObj != (len(typ) > 6 && typ[:6] == "STRUCT") {
			t.Errorf("column %s is %s, and contractObjects says otherwise", name, typ)
		}
	}
	for f := range contractFields {
		if !slices.Contains(cols, f) {
			t.Errorf("contract field %s is not a column", f)
		}
	}
}

func TestUnknownFields(t *testing.T) {
	cases := []struct{ raw, want string }{
		{"", "null"},
		{`{"type":"run","run_id":"r","error":{"code":"x"}}`, "null"},
		{`{"type":"run","vendor":{"a":[1,2.50]},"error":{"code":"x","hint":"h"},"fault":{"expect":{"action":"retry","why":1}},"agent":"not an object"}`,
			`{"error":{"hint":"h"},"fault":{"expect":{"why":1}},"vendor":{"a":[1,2.50]}}`},
	}
	for _, c := range cases {
		got, err := unknownFields(c.raw)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(got)
		if string(b) != c.want {
			t.Errorf("unknownFields(%s) = %s, want %s", c.raw, b, c.want)
		}
	}
	if _, err := unknownFields("{"); err == nil {
		t.Error("no error for a broken line")
	}
}
