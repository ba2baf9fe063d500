package compare

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// htmlProbe, put into a copy of the page, reads the rendered page back:
// the verdict banner's text, how many failed gate rows there are and how
// many of them are bold and red, and any two texts of one chart that
// overlap.
const htmlProbe = `<script>
const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const overlaps = [];
document.querySelectorAll('svg').forEach((svg, s) => {
  const rs = [...svg.querySelectorAll('text')].map(t => t.getBoundingClientRect());
  rs.forEach((a, i) => { for (let j = 0; j < i; j++) if (hit(a, rs[j])) overlaps.push(s + ':' + j + '/' + i); });
});
const fails = [...document.querySelectorAll('tr.FAIL')];
const loud = fails.filter(r => { const c = getComputedStyle(r); return +c.fontWeight >= 700 && c.color === 'rgb(170, 0, 0)'; });
const b = document.getElementById('verdict');
const bannerTop = b ? b.getBoundingClientRect().top : -1;
document.body.setAttribute('data-probe', [b ? b.querySelector('b').textContent : 'no banner', 'top=' + Math.round(bannerTop),
  'fail=' + fails.length, 'loud=' + loud.length, 'overlaps=' + overlaps.join(',')].join('|'));
</script>`

// TestHTMLInChromium renders the compare page in headless Chromium (it
// skips without it) and reads it back: the banner is the first thing on
// the page and names the verdict, every failed gate's row (gates table
// and gated rows) is bold and red, and no chart text overlaps another.
func TestHTMLInChromium(t *testing.T) {
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
	var page bytes.Buffer
	if err := Write(&page, goldenResult(), "html"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	html := filepath.Join(dir, "compare.html")
	if err := os.WriteFile(html, bytes.Replace(page.Bytes(), []byte("</body>"), []byte(htmlProbe+"</body>"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--window-size=1280,2000", "--dump-dom", "file://"+html).Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	m := regexp.MustCompile(`data-probe="([^"]*)"`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("the probe did not run: %.300s", out)
	}
	// Two failed gates: their two gate rows and their two gated rows.
	want := "FAILED: 2 of 14 gates failed, 4 passed, 8 skipped|top=24|fail=4|loud=4|overlaps="
	if got := strings.ReplaceAll(string(m[1]), "&amp;", "&"); got != want {
		t.Errorf("rendered page:\n got %s\nwant %s", got, want)
	}
}
