package rules_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/internal/rules"
	"github.com/aepflow/aepflow/tree"
)

// module is the path the project's packages are imported by.
const module = "github.com/aepflow/aepflow"

// computedCodes lists, per emission whose code no constant names (by file
// and enclosing function), the codes it can produce. A new such emission
// fails TestEveryEmittedCodeIsDocumented until it is listed here, so that
// no code escapes the check.
var computedCodes = map[string][]string{
	"tree/load.go (*Tree).register": duplicateCodes(),
}

// codeCarriers lists the types besides diag.Diagnostic whose `code` field
// becomes a diagnostic's code, by import path and type name. A literal of
// one is an emission; reading the field back (`f.code`) is not.
var codeCarriers = map[string]bool{module + "/predicate.failure": true}

// duplicateCodes returns the duplicate_<kind> code of every document kind.
func duplicateCodes() []string {
	var out []string
	for _, k := range tree.Kinds {
		out = append(out, tree.DuplicateCode(k))
	}
	return out
}

// TestEveryEmittedCodeIsDocumented reads every non-test Go file of the
// module and finds each place a diagnostic's code is set: the first
// argument of diag.Errorf and diag.Warningf, and the `Code` field of a
// diag.Diagnostic literal (or the `code` field of a codeCarriers literal).
// A code given by a local variable is followed to its assignments, one
// given by a parameter to the arguments of every call of the function.
// Every code found must have a section on a code page (rules.Documented),
// so that every SARIF helpUri points at a section that explains it.
func TestEveryEmittedCodeIsDocumented(t *testing.T) {
	s := parseModule(t, filepath.Join("..", ".."))
	codes, computed := s.codes()
	for _, site := range computed {
		if _, ok := computedCodes[site]; !ok {
			t.Errorf("%s: a code is computed there; list what it can be in computedCodes", site)
		}
	}
	for site, listed := range computedCodes {
		if !slices.Contains(computed, site) {
			t.Errorf("computedCodes lists %s, which computes no code any more", site)
		}
		for _, c := range listed {
			codes[c] = append(codes[c], site)
		}
	}
	if len(codes) < 100 {
		t.Fatalf("only %d codes found: the scan is broken", len(codes))
	}
	for _, code := range slices.Sorted(maps.Keys(codes)) {
		if !rules.Documented(code) {
			t.Errorf("code %s (set at %s) has no section on a code page", code, strings.Join(slices.Compact(slices.Sorted(slices.Values(codes[code]))), ", "))
		}
	}
}

// TestTheScanFindsEveryShape guards the scanner itself: each way of
// setting a code in the module must be found.
func TestTheScanFindsEveryShape(t *testing.T) {
	s := parseModule(t, filepath.Join("..", ".."))
	codes, _ := s.codes()
	for code, how := range map[string]string{
		"yaml_syntax":             "a constant of the same package",
		"flow_unreadable":         "a string literal",
		"TRACE-SPEC-002":          "a constant through a helper's parameter (trace's refusal)",
		"flow_duplicate_gives":    "a literal through a parameter (flow's names)",
		"unknown_phase":           "a local variable assigned a constant (protocol's checkID)",
		"input_too_large":         "a constant of another package",
		"predicate_too_deep":      "a codeCarriers literal",
		"resolution_failed":       "the engine's failf",
		"diff_nothing_to_compare": "an unexported constant of cmd",
	} {
		if len(codes[code]) == 0 {
			t.Errorf("%s (%s) is not found", code, how)
		}
	}
}

// module scan ---------------------------------------------------------

type scan struct {
	fset *token.FileSet
	// consts maps an import path to its package's string constants.
	consts map[string]map[string]string
	files  []*goFile
}

type goFile struct {
	rel     string            // path from the module root, slash-separated
	pkg     string            // import path
	imports map[string]string // local name -> import path
	ast     *ast.File
}

// fnKey names a function: import path, then `f` or `(*T).f`.
type fnKey struct{ pkg, name string }

// parseModule parses every non-test Go file under root.
func parseModule(t *testing.T, root string) *scan {
	t.Helper()
	s := &scan{fset: token.NewFileSet(), consts: map[string]map[string]string{}}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(s.fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		pkg := module
		if dir := filepath.ToSlash(filepath.Dir(rel)); dir != "." {
			pkg += "/" + dir
		}
		gf := &goFile{rel: rel, pkg: pkg, imports: map[string]string{}, ast: f}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			local := p[strings.LastIndexByte(p, '/')+1:]
			if im.Name != nil {
				local = im.Name.Name
			}
			gf.imports[local] = p
		}
		s.files = append(s.files, gf)
		s.learnConsts(pkg, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func (s *scan) learnConsts(pkg string, f *ast.File) {
	if s.consts[pkg] == nil {
		s.consts[pkg] = map[string]string{}
	}
	for _, decl := range f.Decls {
		d, ok := decl.(*ast.GenDecl)
		if !ok || d.Tok != token.CONST {
			continue
		}
		for _, spec := range d.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if i < len(vs.Values) {
					if v, ok := stringLit(vs.Values[i]); ok {
						s.consts[pkg][name.Name] = v
					}
				}
			}
		}
	}
}

// codes returns every code the module sets, with where, and the sites
// (`file function`) that compute a code the scan cannot follow.
func (s *scan) codes() (map[string][]string, []string) {
	codes := map[string][]string{}
	var computed []string
	// forwarded holds the parameters a code flows through: a function and
	// the index of the parameter.
	forwarded := map[fnKey]map[int]bool{}
	var pending []struct {
		fn  fnKey
		idx int
	}
	resolveAt := func(f *goFile, fn *ast.FuncDecl, e ast.Expr) {
		at := fmt.Sprintf("%s:%d", f.rel, s.fset.Position(e.Pos()).Line)
		vals, params, ok := s.resolve(f, fn, e, 0)
		for _, v := range vals {
			codes[v] = append(codes[v], at)
		}
		for _, i := range params {
			k := fnKey{f.pkg, funcName(fn)}
			if forwarded[k] == nil {
				forwarded[k] = map[int]bool{}
			}
			if !forwarded[k][i] {
				forwarded[k][i] = true
				pending = append(pending, struct {
					fn  fnKey
					idx int
				}{k, i})
			}
		}
		if !ok {
			site := f.rel + " " + funcName(fn)
			if !slices.Contains(computed, site) {
				computed = append(computed, site)
			}
		}
	}
	s.eachFunc(func(f *goFile, fn *ast.FuncDecl) {
		ast.Inspect(fn, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				if len(x.Args) > 0 && s.isDiagConstructor(f, x.Fun) {
					resolveAt(f, fn, x.Args[0])
				}
			case *ast.CompositeLit:
				if s.carriesCode(f, x.Type) {
					for _, el := range x.Elts {
						if kv, ok := el.(*ast.KeyValueExpr); ok {
							if k, ok := kv.Key.(*ast.Ident); ok && (k.Name == "Code" || k.Name == "code") {
								resolveAt(f, fn, kv.Value)
							}
						}
					}
				}
			}
			return true
		})
	})
	// Follow each forwarding parameter to the arguments of its calls,
	// until no new parameter is found.
	for len(pending) > 0 {
		p := pending[0]
		pending = pending[1:]
		s.eachFunc(func(f *goFile, fn *ast.FuncDecl) {
			ast.Inspect(fn, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok && p.idx < len(call.Args) && s.calls(f, call.Fun, p.fn) {
					resolveAt(f, fn, call.Args[p.idx])
				}
				return true
			})
		})
	}
	return codes, computed
}

func (s *scan) eachFunc(visit func(*goFile, *ast.FuncDecl)) {
	for _, f := range s.files {
		for _, d := range f.ast.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Body != nil {
				visit(f, fn)
			}
		}
	}
}

// resolve returns the codes e can hold in fn: string literals and
// constants, through local variables; the indexes of fn's parameters it
// comes from; and false when some value cannot be followed.
func (s *scan) resolve(f *goFile, fn *ast.FuncDecl, e ast.Expr, depth int) (vals []string, params []int, ok bool) {
	if depth > 8 {
		return nil, nil, false
	}
	if v, isLit := stringLit(e); isLit {
		return []string{v}, nil, true
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		return s.resolve(f, fn, x.X, depth+1)
	case *ast.Ident:
		if i := paramIndex(fn, x.Name); i >= 0 {
			return nil, []int{i}, true
		}
		if assigned := assignments(fn, x.Name); len(assigned) > 0 {
			ok = true
			for _, a := range assigned {
				v, p, aok := s.resolve(f, fn, a, depth+1)
				vals, params, ok = append(vals, v...), append(params, p...), ok && aok
			}
			return vals, params, ok
		}
		v, found := s.consts[f.pkg][x.Name]
		return []string{v}, nil, found
	case *ast.SelectorExpr:
		if id, isID := x.X.(*ast.Ident); isID {
			if p, imported := f.imports[id.Name]; imported {
				v, found := s.consts[p][x.Sel.Name]
				return []string{v}, nil, found
			}
		}
		if x.Sel.Name == "code" && len(codeCarriers) > 0 {
			return nil, nil, true // a carrier's field read back: its literals are emissions
		}
	}
	return nil, nil, false
}

// paramIndex returns the index of fn's parameter name, or -1.
func paramIndex(fn *ast.FuncDecl, name string) int {
	i := 0
	for _, field := range fn.Type.Params.List {
		for _, n := range field.Names {
			if n.Name == name {
				return i
			}
			i++
		}
		if len(field.Names) == 0 {
			i++
		}
	}
	return -1
}

// assignments returns every value assigned to the local name in fn.
func assignments(fn *ast.FuncDecl, name string) []ast.Expr {
	var out []ast.Expr
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			if len(x.Lhs) == len(x.Rhs) {
				for i, l := range x.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name == name {
						out = append(out, x.Rhs[i])
					}
				}
			}
		case *ast.ValueSpec:
			for i, n := range x.Names {
				if n.Name == name && i < len(x.Values) {
					out = append(out, x.Values[i])
				}
			}
		}
		return true
	})
	return out
}

// isDiagConstructor reports whether fun is diag.Errorf or diag.Warningf.
func (s *scan) isDiagConstructor(f *goFile, fun ast.Expr) bool {
	switch x := fun.(type) {
	case *ast.Ident:
		return f.pkg == module+"/diag" && (x.Name == "Errorf" || x.Name == "Warningf")
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok && f.imports[id.Name] == module+"/diag" {
			return x.Sel.Name == "Errorf" || x.Sel.Name == "Warningf"
		}
	}
	return false
}

// calls reports whether fun, called in f, may be the function k: by name
// in its own package, as pkg.Name from another, or as a method of that
// name in k's package.
func (s *scan) calls(f *goFile, fun ast.Expr, k fnKey) bool {
	method := strings.HasPrefix(k.name, "(")
	base := k.name[strings.LastIndexByte(k.name, '.')+1:]
	switch x := fun.(type) {
	case *ast.Ident:
		return !method && f.pkg == k.pkg && x.Name == k.name
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok {
			if p, imported := f.imports[id.Name]; imported {
				return !method && p == k.pkg && x.Sel.Name == k.name
			}
		}
		return method && f.pkg == k.pkg && x.Sel.Name == base
	}
	return false
}

// carriesCode reports whether a composite literal of type typ sets a
// diagnostic's code: a diag.Diagnostic, or one of codeCarriers.
func (s *scan) carriesCode(f *goFile, typ ast.Expr) bool {
	switch x := typ.(type) {
	case *ast.Ident:
		return (f.pkg == module+"/diag" && x.Name == "Diagnostic") || codeCarriers[f.pkg+"."+x.Name]
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok {
			p := f.imports[id.Name]
			return (p == module+"/diag" && x.Sel.Name == "Diagnostic") || codeCarriers[p+"."+x.Sel.Name]
		}
	}
	return false
}

func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	v, err := strconv.Unquote(lit.Value)
	return v, err == nil
}

// funcName names a function as `f` or a method as `(*T).f` / `(T).f`.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	var b strings.Builder
	var recv func(ast.Expr)
	recv = func(e ast.Expr) {
		switch x := e.(type) {
		case *ast.StarExpr:
			b.WriteString("*")
			recv(x.X)
		case *ast.Ident:
			b.WriteString(x.Name)
		case *ast.IndexExpr:
			recv(x.X)
		}
	}
	b.WriteString("(")
	recv(fn.Recv.List[0].Type)
	b.WriteString(").")
	b.WriteString(fn.Name.Name)
	return b.String()
}
