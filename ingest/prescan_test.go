package ingest

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// jaggedReader returns its content in reads of irregular sizes, so that
// lines are cut by the prescan's reads anywhere.
type jaggedReader struct {
	b   []byte
	rnd *rand.Rand
}

func (r *jaggedReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), len(r.b), 1+r.rnd.IntN(400<<10))
	copy(p, r.b[:n])
	r.b = r.b[n:]
	return n, nil
}

// TestPrescanMatchesLineByLine checks the prescan's line count, blank lines
// and key/type verdicts, with the numbers of the lines that are not typed,
// against a plain statement of them (split at "\n", judge each line) on a
// file of several MiB read in jagged pieces, parallel and serial.
func TestPrescanMatchesLineByLine(t *testing.T) {
	base := strings.Split(strings.TrimSuffix(generated(t, 12000, 3), "\n"), "\n")
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range base {
		switch rnd.IntN(200) {
		case 0:
			base[i] = base[i][:len(base[i])/2]
		case 1:
			base[i] = with(base[i], `"host":"h"`)
		case 2:
			base[i] = " \t\r"
		case 3:
			base[i] += "\r"
		case 4:
			base[i] = replace(base[i], "ts", `"2026-01-01 00:00:00"`) // no zone: the regexes must judge it
		}
	}
	for _, content := range []string{lines(base...), strings.Join(base, "\n")} {
		var want scan
		var ls lineScanner
		for i, l := range strings.Split(strings.TrimSuffix(content, "\n"), "\n") {
			want.lines++
			if strings.Trim(l, " \t\r") == "" {
				want.blank++
				continue
			}
			v := ls.line([]byte(l))
			want.judge(int64(i+1), v, ls.tsOdd)
		}
		if want.malformed < 20 || want.jsonLines < 20 || want.blank < 20 || want.tsOdd < 20 || len(content) < 3<<20 {
			t.Fatalf("fixture too tame: %d malformed, %d json, %d blank, %d bytes", want.malformed, want.jsonLines, want.blank, len(content))
		}
		defer func(v bool) { prescanSerial = v }(prescanSerial)
		for _, serial := range []bool{false, true} {
			prescanSerial = serial
			got, err := prescan(&jaggedReader{[]byte(content), rand.New(rand.NewPCG(uint64(len(content)), 7))}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got.lines != want.lines || got.blank != want.blank || got.jsonLines != want.jsonLines ||
				got.malformed != want.malformed || !slices.Equal(got.others, want.others) || got.suspect || got.tsOdd != want.tsOdd {
				t.Errorf("serial %v: lines %d blank %d json %d malformed %d others %d suspect %v tsOdd %d; want %d %d %d %d %d, tsOdd %d",
					serial, got.lines, got.blank, got.jsonLines, got.malformed, len(got.others), got.suspect, got.tsOdd,
					want.lines, want.blank, want.jsonLines, want.malformed, len(want.others), want.tsOdd)
			}
			sum := sha256.Sum256([]byte(content))
			if got.bytes != int64(len(content)) || got.sha256 != hex.EncodeToString(sum[:]) {
				t.Errorf("bytes %d, sha256 %s; want %d, %x", got.bytes, got.sha256, len(content), sum)
			}
		}
	}
}
