package baselines

import (
	"context"
	"runtime/debug"
	"testing"
	"time"

	"github.com/faultlens/faultlens/internal/testdb"
	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/store"
)

// TestSaveLoadRoundTrip saves the bundled baseline suite and reads it back:
// the evidence is the same, and saving again needs force.
func TestSaveLoadRoundTrip(t *testing.T) {
	ctx := context.Background()
	db := testdb.Load(t, testdb.SamplePath(t, "baseline.jsonl"))
	sess := testdb.Session(t, db, metrics.Open)
	dir := t.TempDir()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	m, err := Save(ctx, sess, dir, "nightly", "baseline", false, now)
	if err != nil {
		t.Fatal(err)
	}
	live, err := sess.Evidence(ctx, "baseline")
	if err != nil {
		t.Fatal(err)
	}
	if m.Runs != len(live.Runs) || m.Runs == 0 || len(m.Sources) != 1 || m.TraceSchemaVersion != store.SchemaVersion {
		t.Errorf("manifest = %+v", m)
	}
	if _, err := Save(ctx, sess, dir, "nightly", "baseline", false, now); err == nil {
		t.Error("second save without force succeeded")
	}
	if _, err := Save(ctx, sess, dir, "nightly", "baseline", true, now); err != nil {
		t.Errorf("save with force: %v", err)
	}
	if _, err := Save(ctx, sess, dir, "empty", "nope", false, now); err == nil {
		t.Error("saving a suite without runs succeeded")
	}
	ev, _, err := Load(ctx, db, dir, "nightly")
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Runs) != len(live.Runs) || len(ev.Latency) != len(live.Latency) || len(ev.Recovery) != len(live.Recovery) {
		t.Fatalf("loaded %d/%d/%d, live %d/%d/%d", len(ev.Runs), len(ev.Latency), len(ev.Recovery),
			len(live.Runs), len(live.Latency), len(live.Recovery))
	}
	for i := range ev.Runs {
		a, b := ev.Runs[i], live.Runs[i]
		if a.RunID != b.RunID || a.Scenario != b.Scenario || *a.Success != *b.Success || a.Resends != b.Resends {
			t.Fatalf("run %d differs: %+v vs %+v", i, a, b)
		}
	}
	list, err := List(dir)
	if err != nil || len(list) != 1 || list[0].Name != "nightly" {
		t.Errorf("List = %v, %v", list, err)
	}
	if err := CheckName("../x"); err == nil {
		t.Error("CheckName accepted ../x")
	}
}

// TestVersionOf checks the version a baseline records: the module version,
// with the VCS revision when the build has one.
func TestVersionOf(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}
	cases := []struct {
		bi   debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}, "v1.2.0"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: rev}, "(devel) (0123456789ab+dirty)"},
		{debug.BuildInfo{Main: debug.Module{Version: ""}, Settings: rev[:1]}, "(devel) (0123456789ab)"},
		{debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261204-0123456789ab"}, Settings: rev[:1]}, "v0.0.0-20261204-0123456789ab"},
	}
	for _, c := range cases {
		if got := versionOf(&c.bi); got != c.want {
			t.Errorf("versionOf(%+v) = %q, want %q", c.bi.Main, got, c.want)
		}
	}
}
