package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/faultlens/faultlens/internal/golden"
)

// TestMain lets the txtar scripts run the real command as "faultlens".
// With FAULTLENS_CHILD=1 the test binary is the faultlens command itself,
// so that tests can run (and kill) it as a separate process.
func TestMain(m *testing.M) {
	if os.Getenv("FAULTLENS_CHILD") == "1" {
		os.Exit(Run(context.Background(), os.Args[1:], Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
	}
	testscript.Main(m, map[string]func(){
		"faultlens": func() {
			os.Exit(Run(context.Background(), os.Args[1:], Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
		},
	})
}

// TestScripts runs the end-to-end CLI scripts in testdata/script.
func TestScripts(t *testing.T) {
	shared, _ := filepath.Abs("../../shared")
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		// go test ./cli -update rewrites the files a failing cmp compares
		// against inside the .txtar, like the golden files elsewhere.
		UpdateScripts: golden.Update(),
		Setup: func(env *testscript.Env) error {
			// Real traces written by other software, beside the repository.
			env.Setenv("REAL_TRACES", filepath.Join(shared, "real-traces"))
			// OTLP written by real agent frameworks (scripts/otel-fixtures).
			frameworks, _ := filepath.Abs("../otlp/testdata/frameworks")
			env.Setenv("FRAMEWORKS", frameworks)
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "realtraces" {
				_, err := os.Stat(filepath.Join(shared, "real-traces"))
				return err == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	})
}
