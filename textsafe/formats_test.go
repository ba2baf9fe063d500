package textsafe

import "testing"

func TestCSVCell(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain text", "plain text"},
		// OWASP CSV injection examples.
		{"=1+1", "'=1+1"},
		{"=HYPERLINK(\"http://evil.example\",\"x\")", "'=HYPERLINK(\"http://evil.example\",\"x\")"},
		{"+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"},
		{"-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"},
		{"@SUM(1+1)*cmd|' /C calc'!A0", "'@SUM(1+1)*cmd|' /C calc'!A0"},
		// Tab and CR lead-ins become spaces and are looked through.
		{"\t=1+1", "' =1+1"},
		{"\r=1+1", "' =1+1"},
		{"  @x", "'  @x"},
		// Decided: numeric-looking trace strings are prefixed too.
		{"-12.5", "'-12.5"},
		{"12.5", "12.5"},
		{"a=b", "a=b"},
		{"\x1b[31m=1+1", "'=1+1"},
		{"line1\nline2", "line1 line2"},
		{"", ""},
	}
	for _, c := range cases {
		if got := CSVCell(c.in); got != c.want {
			t.Errorf("CSVCell(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestMarkdown(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"a | b", `a \| b`},
		{"`code`", "\\`code\\`"},
		{"*bold* _em_", `\*bold\* \_em\_`},
		{"[click](http://evil.example)", `\[click\](http://evil.example)`},
		{"<img src=x onerror=alert(1)>", `\<img src=x onerror=alert(1)\>`},
		{`back\slash`, `back\\slash`},
		{"row\n| x | y |", `row \| x \| y \|`},
		{"\x1b[31m|\x1b[0m", `\|`},
		{"世界", "世界"},
	}
	for _, c := range cases {
		if got := Markdown(c.in); got != c.want {
			t.Errorf("Markdown(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestHTML(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain", "plain"},
		{`<script>alert("x")</script>`, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;"},
		{"a & b\x1b]0;t\x07", "a &amp; b"},
		{"it's\u202e", "it&#39;s"},
	}
	for _, c := range cases {
		if got := HTML(c.in); got != c.want {
			t.Errorf("HTML(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
