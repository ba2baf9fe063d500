package proxy

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzParsePlan: any input is a plan or an error naming the file, never a
// panic; a plan that parses has every sample's defaults filled in.
func FuzzParsePlan(f *testing.F) {
	for _, p := range ShippedPlans() {
		data, _ := shippedFS.ReadFile("plans/" + p.Name + ".yaml")
		f.Add(data)
	}
	f.Add([]byte("samples: [{tool: '[', fault: {kind: timeout}}]"))
	f.Add([]byte("breaker: {failures: 1, cooldown_ms: -1}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePlan("fuzz.yaml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "plan fuzz.yaml") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		for _, s := range p.Samples {
			if s.Class == "" || s.Name == "" {
				t.Fatalf("sample without defaults: %+v", s)
			}
		}
	})
}

// FuzzClientLines: whatever the client sends, without a plan the server
// receives exactly its non-blank lines, and the proxy does not panic.
func FuzzClientLines(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}}` + "\n"))
	f.Add([]byte(`[{"id":1}]` + "\r\n{}\n\n" + `{"id":null,"method":"m"}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":{"a":1},"method":"tools/call","params":{"name":1,"_meta":{"traceparent":5}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		up := &echoUpstream{answers: map[string][]string{}, msgs: make(chan []byte, 1)}
		var out, events bytes.Buffer
		if err := New(Options{SessionID: "s", Events: &events}).Serve(bytes.NewReader(data), &out, up); err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, l := range strings.Split(string(data), "\n") {
			if l = strings.TrimRight(l, "\r\n"); strings.TrimSpace(l) != "" {
				want = append(want, l)
			}
		}
		if strings.Join(up.got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("the server got %q, want %q", up.got, want)
		}
	})
}
