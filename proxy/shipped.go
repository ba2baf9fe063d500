package proxy

import (
	"embed"
	"sort"
	"strings"
)

//go:embed plans/*.yaml
var shippedFS embed.FS

// ShippedPlans lists the plans embedded in the binary, by name.
func ShippedPlans() []*Plan {
	entries, err := shippedFS.ReadDir("plans")
	if err != nil {
		panic(err) // embedded at build time
	}
	out := make([]*Plan, 0, len(entries))
	for _, e := range entries {
		data, err := shippedFS.ReadFile("plans/" + e.Name())
		if err != nil {
			panic(err)
		}
		p, err := ParsePlan(e.Name(), data)
		if err != nil {
			panic(err) // a shipped plan that does not parse fails TestShippedPlans
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ShippedPlan finds a shipped plan by name.
func ShippedPlan(name string) (*Plan, bool) {
	for _, p := range ShippedPlans() {
		if strings.EqualFold(p.Name, name) {
			return p, true
		}
	}
	return nil, false
}
