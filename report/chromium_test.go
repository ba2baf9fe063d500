package report

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/faultlens/faultlens/metrics"
)

// layoutProbe, put into a copy of a page, measures the rendered SVG text
// and writes what it found into the body's data-layout attribute: "OK"
// and the number of x labels, or "BAD" and the overlapping pairs (x
// labels with x labels, value labels with value labels, any label outside
// its chart) and y axes whose ticks repeat a label.
const layoutProbe = `<script>
const bad = [];
const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
document.querySelectorAll('svg').forEach((svg, s) => {
  const box = svg.getBoundingClientRect();
  for (const cls of ['xlabel', 'value']) {
    const rs = [...svg.querySelectorAll('text.' + cls)].map(t => t.getBoundingClientRect());
    rs.forEach((a, i) => {
      if (a.left < box.left - 0.5 || a.right > box.right + 0.5) bad.push(s + ':' + cls + i + ':outside');
      for (let j = 0; j < i; j++) if (hit(a, rs[j])) bad.push(s + ':' + cls + j + '/' + i);
    });
  }
  const ticks = [...svg.querySelectorAll('text.ytick')].map(t => t.textContent);
  if (new Set(ticks).size !== ticks.length) bad.push(s + ':ticks ' + ticks.join(','));
});
const banner = document.getElementById('verdict');
document.body.setAttribute('data-layout', (bad.length ? 'BAD ' + bad.join(' ') : 'OK ' + document.querySelectorAll('text.xlabel').length) +
  (banner ? ' banner ' + getComputedStyle(banner).backgroundColor : ''));
</script>`

// chromiumLayout renders page in headless Chromium with layoutProbe and
// returns its finding; it skips the test when Chromium is not installed.
func chromiumLayout(t *testing.T, page []byte) string {
	t.Helper()
	browser := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		t.Skip("chromium not installed (apt-get install -y chromium)")
	}
	dir := t.TempDir()
	html := filepath.Join(dir, "page.html")
	probed := bytes.Replace(page, []byte("</body>"), []byte(layoutProbe+"</body>"), 1)
	if err := os.WriteFile(html, probed, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--window-size=1280,2000", "--dump-dom", "file://"+html)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	m := regexp.MustCompile(`data-layout="([^"]*)"`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("the probe did not run: %.300s", out)
	}
	return string(m[1])
}

// nights is a history of n nightly suites whose success wanders between
// 97 % and 100 %.
func nights(n int) *metrics.Trend {
	tr := &metrics.Trend{Metrics: []string{"success", "masked_success"}, Values: make([][]float64, 2)}
	for i := range n {
		at := time.Date(2026, 9, 1, 2, 0, 0, 0, time.UTC).AddDate(0, 0, i)
		tr.Suites = append(tr.Suites, metrics.SuiteStart{Suite: fmt.Sprintf("night-%02d", i+1), StartedAt: &at, Runs: 200})
		tr.Values[0] = append(tr.Values[0], 1-float64(i%4)*0.01)
		tr.Values[1] = append(tr.Values[1], float64(i%3)*0.005)
	}
	return tr
}

// TestHistoryLayoutInChromium renders the history page at 9, 30 and 90
// nights and checks in the browser that no two x labels overlap, no value
// label overlaps another, every label stays inside its chart and the y
// ticks do not repeat a label.
func TestHistoryLayoutInChromium(t *testing.T) {
	for _, n := range []int{9, 30, 90} {
		var b bytes.Buffer
		if err := WriteHistory(&b, nights(n), "html"); err != nil {
			t.Fatal(err)
		}
		got := chromiumLayout(t, b.Bytes())
		if !strings.HasPrefix(got, "OK ") || got == "OK 0" {
			t.Errorf("%d nights: %s", n, got)
		}
	}
}
