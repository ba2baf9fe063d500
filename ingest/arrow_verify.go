package ingest

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// arrow-go decodes IPC metadata (flatbuffers) without bounds checks: a
// corrupt vector length makes it allocate terabytes and the process dies,
// which no recover can catch. So every flatbuffer of the file is checked
// here first, the way a flatbuffers verifier would: offsets inside the
// buffer, vectors that fit, bounded depth and work.

// fbKind is what a field of a flatbuffer table holds.
type fbKind int

const (
	fbScalar     fbKind = iota
	fbString            // offset to a string
	fbTable             // offset to a table of spec sub
	fbTables            // offset to a vector of tables of spec sub
	fbStructs           // offset to a vector of elem-byte structs or scalars
	fbUnionTable        // offset to a table whose spec is chosen by the union type field union
)

type fbField struct {
	kind  fbKind
	sub   *fbSpec
	elem  int
	union map[byte]*fbSpec // for fbUnionTable; a missing type is an opaque table
	tag   int              // for fbUnionTable: the index of the type field
}

// fbSpec describes a table: field index to what it holds (absent: scalar).
type fbSpec struct{ fields map[int]fbField }

var (
	fbOpaque       = &fbSpec{}
	fbKeyValue     = &fbSpec{map[int]fbField{0: {kind: fbString}, 1: {kind: fbString}}}
	fbInt          = &fbSpec{}
	fbDictEncoding = &fbSpec{map[int]fbField{1: {kind: fbTable, sub: fbInt}}}
	fbTimestamp    = &fbSpec{map[int]fbField{1: {kind: fbString}}}
	fbUnionType    = &fbSpec{map[int]fbField{1: {kind: fbStructs, elem: 4}}}
	fbFieldSpec    = &fbSpec{}
	fbSchema       = &fbSpec{map[int]fbField{1: {kind: fbTables, sub: fbFieldSpec}, 2: {kind: fbTables, sub: fbKeyValue}, 3: {kind: fbStructs, elem: 8}}}
	fbRecordBatch  = &fbSpec{map[int]fbField{1: {kind: fbStructs, elem: 16}, 2: {kind: fbStructs, elem: 16}, 3: {kind: fbTable, sub: fbOpaque}, 4: {kind: fbStructs, elem: 8}}}
	fbDictBatch    = &fbSpec{map[int]fbField{1: {kind: fbTable, sub: fbRecordBatch}}}
	fbMessage      = &fbSpec{map[int]fbField{
		2: {kind: fbUnionTable, tag: 1, union: map[byte]*fbSpec{1: fbSchema, 2: fbDictBatch, 3: fbRecordBatch}},
		4: {kind: fbTables, sub: fbKeyValue},
	}}
	fbFooter = &fbSpec{map[int]fbField{1: {kind: fbTable, sub: fbSchema}, 2: {kind: fbStructs, elem: 24},
		3: {kind: fbStructs, elem: 24}, 4: {kind: fbTables, sub: fbKeyValue}}}
)

func init() {
	fbFieldSpec.fields = map[int]fbField{
		0: {kind: fbString},
		3: {kind: fbUnionTable, tag: 2, union: map[byte]*fbSpec{10: fbTimestamp, 14: fbUnionType}},
		4: {kind: fbTable, sub: fbDictEncoding},
		5: {kind: fbTables, sub: fbFieldSpec},
		6: {kind: fbTables, sub: fbKeyValue},
	}
}

var (
	errBadMetadata = errors.New("invalid metadata")
	errBadFooter   = errors.New("no valid footer")
)

// fbVerifier walks one flatbuffer.
type fbVerifier struct {
	b    []byte
	work int
}

const (
	fbMaxDepth = 64
	fbMaxWork  = 1 << 20
)

func (v *fbVerifier) u32(at int64) (uint32, bool) {
	if at < 0 || at+4 > int64(len(v.b)) {
		return 0, false
	}
	return binary.LittleEndian.Uint32(v.b[at:]), true
}

func (v *fbVerifier) u16(at int64) (uint16, bool) {
	if at < 0 || at+2 > int64(len(v.b)) {
		return 0, false
	}
	return binary.LittleEndian.Uint16(v.b[at:]), true
}

// root verifies the buffer's root table.
func (v *fbVerifier) root(spec *fbSpec) error {
	off, ok := v.u32(0)
	if !ok || !v.table(int64(off), spec, 0) {
		return errBadMetadata
	}
	return nil
}

// table verifies the table at pos and, through spec, what it points to.
func (v *fbVerifier) table(pos int64, spec *fbSpec, depth int) bool {
	v.work++
	if depth > fbMaxDepth || v.work > fbMaxWork {
		return false
	}
	so, ok := v.u32(pos)
	if !ok {
		return false
	}
	vt := pos - int64(int32(so))
	vtLen, ok1 := v.u16(vt)
	tLen, ok2 := v.u16(vt + 2)
	if !ok1 || !ok2 || vtLen < 4 || vtLen%2 != 0 || vt+int64(vtLen) > int64(len(v.b)) || pos+int64(tLen) > int64(len(v.b)) {
		return false
	}
	n := int(vtLen-4) / 2
	for i := 0; i < n; i++ {
		fo, _ := v.u16(vt + 4 + 2*int64(i))
		if fo == 0 {
			continue
		}
		if int64(fo) >= int64(tLen) {
			return false
		}
		f, ok := spec.fields[i]
		if !ok || f.kind == fbScalar {
			continue
		}
		at := pos + int64(fo)
		rel, ok := v.u32(at)
		if !ok {
			return false
		}
		target := at + int64(rel)
		switch f.kind {
		case fbTable:
			if !v.table(target, f.sub, depth+1) {
				return false
			}
		case fbUnionTable:
			sub := fbOpaque
			if to, ok := v.u16(vt + 4 + 2*int64(f.tag)); ok && f.tag < n && to != 0 && pos+int64(to) < int64(len(v.b)) {
				if s, ok := f.union[v.b[pos+int64(to)]]; ok {
					sub = s
				}
			}
			if !v.table(target, sub, depth+1) {
				return false
			}
		case fbString, fbStructs, fbTables:
			elem := int64(f.elem)
			switch f.kind {
			case fbString:
				elem = 1
			case fbTables:
				elem = 4
			}
			cnt, ok := v.u32(target)
			if !ok || target+4+int64(cnt)*elem > int64(len(v.b)) {
				return false
			}
			if f.kind == fbTables {
				for j := int64(0); j < int64(cnt); j++ {
					at := target + 4 + 4*j
					rel, _ := v.u32(at)
					if !v.table(at+int64(rel), f.sub, depth+1) {
						return false
					}
				}
			}
		}
	}
	return true
}

// verifyArrowMetadata checks every flatbuffer of the IPC file or stream in
// f (size bytes) before arrow-go reads it.
func verifyArrowMetadata(f io.ReaderAt, size int64, isFile bool) error {
	if isFile {
		// ARROW1, padding, stream, footer, int32 footer length, ARROW1.
		if size < 6+2+4+6 {
			return errBadFooter
		}
		var tail [10]byte
		if _, err := f.ReadAt(tail[:], size-10); err != nil {
			return err
		}
		flen := int64(int32(binary.LittleEndian.Uint32(tail[:4])))
		if flen <= 0 || flen > size-18 || string(tail[4:]) != "ARROW1" {
			return errBadFooter
		}
		footer := make([]byte, flen)
		if _, err := f.ReadAt(footer, size-10-flen); err != nil {
			return err
		}
		if err := (&fbVerifier{b: footer}).root(fbFooter); err != nil {
			return errBadFooter
		}
		return verifyMessages(f, 8, size-10-flen)
	}
	return verifyMessages(f, 0, size)
}

// verifyMessages checks the framed messages in [from, to): an optional
// 0xFFFFFFFF continuation, an int32 metadata length, the Message
// flatbuffer, then its body. A zero length ends the stream.
func verifyMessages(f io.ReaderAt, from, to int64) error {
	var hdr [8]byte
	for pos := from; pos+4 <= to; {
		if _, err := f.ReadAt(hdr[:4], pos); err != nil {
			return err
		}
		n := binary.LittleEndian.Uint32(hdr[:4])
		pos += 4
		if n == 0xFFFFFFFF {
			if pos+4 > to {
				return nil // a truncated frame; the reader reports it
			}
			if _, err := f.ReadAt(hdr[:4], pos); err != nil {
				return err
			}
			n = binary.LittleEndian.Uint32(hdr[:4])
			pos += 4
		}
		if n == 0 {
			return nil
		}
		if int64(n) > to-pos {
			return nil // truncated: arrow-go reports it without allocating
		}
		meta := make([]byte, n)
		if _, err := f.ReadAt(meta, pos); err != nil {
			return err
		}
		if err := (&fbVerifier{b: meta}).root(fbMessage); err != nil {
			return err
		}
		pos += int64(n)
		body := messageBodyLength(meta)
		if body < 0 || body > to-pos {
			return nil
		}
		pos += body
	}
	return nil
}

// messageBodyLength reads Message.bodyLength (field 3, a long) from a
// verified Message flatbuffer; -1 when absent or out of the buffer.
func messageBodyLength(meta []byte) int64 {
	v := &fbVerifier{b: meta}
	root, _ := v.u32(0)
	so, _ := v.u32(int64(root))
	vt := int64(root) - int64(int32(so))
	vtLen, _ := v.u16(vt)
	if vtLen < 4+2*4 {
		return 0
	}
	fo, _ := v.u16(vt + 4 + 2*3)
	at := int64(root) + int64(fo)
	if fo == 0 {
		return 0
	}
	if at+8 > int64(len(meta)) {
		return -1
	}
	return int64(binary.LittleEndian.Uint64(meta[at:]))
}

// arrowFileSize is the size of an open file.
func arrowFileSize(f *os.File) (int64, error) {
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

// checkRowCount guards the JSON conversion against a batch that claims
// many more rows than its buffers can hold (all-null columns hold none).
func checkRowCount(rec interface {
	NumRows() int64
	NumCols() int64
}, bufferBytes int64) error {
	if rec.NumRows() > 8*bufferBytes+1024 {
		return fmt.Errorf("record batch claims %d rows in %d bytes", rec.NumRows(), bufferBytes)
	}
	return nil
}
