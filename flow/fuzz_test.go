package flow

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
)

// FuzzReadFlow feeds YAML and JSON to the reader, the checks and the plan:
// they never panic, positions stay inside the input, and an accepted
// document written back as YAML (and as JSON) is accepted again as the same
// document, with byte-stable output.
func FuzzReadFlow(f *testing.F) {
	for _, dir := range []string{"check", "plan", "write"} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir, "*"))
		for _, file := range files {
			if strings.HasSuffix(file, ".out") || strings.HasSuffix(file, ".txt") {
				continue
			}
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(strings.HasSuffix(file, ".json"), data)
		}
	}
	// Tags the values do not read as, and tags outside the core schema.
	f.Add(false, []byte("id: !!str a\nsteps: !!set {x: !!null y, z: !!bool 1}\n"))
	// JSON syntax errors inside and between tokens, beyond ASCII, and a
	// byte order mark (positioned by scanning the offending token).
	for _, src := range []string{`{"id": é}`, "\ufeff{}", "{\"id\": \"a\n\"}", `{"a": tru}`, `{"a": "\u12"}`, `{"é": "x" y}`, "{\"a\": \"\xff\"}"} {
		f.Add(true, []byte(src))
	}
	// Text after the end of a YAML document, and parser errors (whose line
	// yaml.v3 prints 0-based).
	for _, src := range []string{"{\"id\": \"f\"}  }\n", "  id: f\nroot: {}\n", "id: f\nroot: {id: r,\n  x\n", "[\"#]\", '}'] # ]\n\n  ]\n"} {
		f.Add(false, []byte(src))
	}
	f.Fuzz(func(t *testing.T, isJSON bool, data []byte) {
		name := "f.yaml"
		if isJSON {
			name = "f.json"
		}
		// Lines as the YAML parser counts them (a lone CR, NEL, LS and PS
		// break lines too), as every position of aepflow does.
		lines := 1
		for i := 0; i < len(data); i++ {
			if b := diag.LineBreak(data, i); b > 0 {
				lines++
				i += b - 1
			}
		}
		d, ds := CheckBytes(name, data, CheckOptions{Governed: true})
		for _, x := range ds {
			if x.Pos.Line > lines || x.Pos.Line < 0 {
				t.Fatalf("position %v outside %d lines: %v", x.Pos, lines, x)
			}
		}
		if d == nil {
			return
		}
		if _, pds := NewPlan(d, 0); pds.HasErrors() {
			t.Fatalf("accepted document does not plan: %v", pds)
		}
		for _, form := range []string{"yaml", "json"} {
			if form == "yaml" && !yamlSafe(d) {
				// The writer puts ids, needs, state, kind and evidence words
				// plain, as the projection does; one that reads back as a
				// non-string is what CheckDocument exists to catch.
				continue
			}
			write := WriteYAML
			if form == "json" {
				write = WriteJSON
			}
			var b1 bytes.Buffer
			if err := write(&b1, []string{"h"}, d); err != nil {
				t.Fatalf("write %s: %v", form, err)
			}
			d2, ds2 := CheckBytes("g."+form, b1.Bytes(), CheckOptions{})
			if ds2.HasErrors() {
				t.Fatalf("written %s refused: %v\n%s", form, ds2.Err(), b1.Bytes())
			}
			if !equalDocument(stripComments(d), d2) {
				t.Fatalf("%s round trip changed the document:\n%s", form, b1.Bytes())
			}
			var b2 bytes.Buffer
			if err := write(&b2, []string{"h"}, d2); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b1.Bytes(), b2.Bytes()) {
				t.Fatalf("%s output not stable:\n%s\n---\n%s", form, b1.Bytes(), b2.Bytes())
			}
		}
	})
}

var plainRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_./-]*$`)

// plainSafe reports whether s reads back as the same string when written
// as a plain YAML scalar.
func plainSafe(s string) bool {
	switch strings.ToLower(s) {
	case "true", "false", "null", "yes", "no", "on", "off", "y", "n":
		return false
	}
	return plainRE.MatchString(s)
}

// printable reports whether s holds only characters YAML allows in a
// stream (q escapes tab, LF and CR; projection.md §6.3 leaves the rest raw).
func printable(s string) bool {
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n' || r == '\r' || r == 0x85:
		case 0x20 <= r && r <= 0x7E, 0xA0 <= r && r <= 0xD7FF, 0xE000 <= r && r <= 0xFFFD && r != 0xFEFF, 0x10000 <= r:
		default:
			return false
		}
	}
	return true
}

func yamlSafe(d *Document) bool {
	ok := plainSafe(d.ID)
	var walk func(n *Node)
	walk = func(n *Node) {
		words := append(append([]string{n.ID}, n.Needs...), n.Gives...)
		if r := n.Run; r != nil {
			text := append([]string{r.Summary, r.Prompt, r.Harness}, r.Context...)
			text = append(append(text, r.Scope...), r.Command...)
			if r.Description != nil {
				text = append(text, *r.Description)
			}
			for _, t := range text {
				ok = ok && printable(t)
			}
			if r.State != "" {
				words = append(words, r.State)
			}
			if e := r.Evidence; e != nil {
				words = append(words, e.Kind, e.Verifier)
				if e.Suite != "" {
					words = append(words, e.Suite)
				}
			}
		}
		for _, w := range words {
			ok = ok && plainSafe(w)
		}
		for _, c := range n.Nodes {
			walk(c)
		}
	}
	walk(d.Root)
	return ok
}

// bigFlow generates a valid document of about n nodes: groups of ten steps
// chained by needs, ten groups to a parent group.
func bigFlow(n int) []byte {
	var b strings.Builder
	b.WriteString("id: big\nroot:\n  id: root\n  nodes:\n")
	for g := 0; g*10 < n; g++ {
		fmt.Fprintf(&b, "    - id: g%d\n", g)
		if g > 0 {
			fmt.Fprintf(&b, "      needs: [g%d]\n", g-1)
		}
		if g%10 == 0 {
			b.WriteString("      repeat: {max: 3}\n")
		}
		b.WriteString("      nodes:\n")
		for s := 0; s < 9; s++ {
			fmt.Fprintf(&b, "        - id: s%d\n", s)
			if s > 0 {
				fmt.Fprintf(&b, "          needs: [s%d]\n", s-1)
			}
			fmt.Fprintf(&b, "          run: {state: g%d, kind: llm, prompt: \"step %d\", scope: [\"src/**=allowed\"]}\n", g, s)
		}
	}
	return []byte(b.String())
}

func BenchmarkCheckAndPlan(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		data := bigFlow(n)
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				d, ds := CheckBytes("big.yaml", data, CheckOptions{})
				if ds.HasErrors() {
					b.Fatal(ds.Err())
				}
				if _, ds := NewPlan(d, 0); ds.HasErrors() {
					b.Fatal(ds.Err())
				}
			}
		})
	}
}
