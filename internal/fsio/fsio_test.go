package fsio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func mkfifo(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	return path
}

func wantKind(t *testing.T, err error, kind Kind) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T); want an *fsio.Error of kind %d", err, err, kind)
	}
	if e.Kind != kind {
		t.Fatalf("err = %v: kind %d; want %d", err, e.Kind, kind)
	}
	return e
}

func TestReadFileRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := mkfifo(t, dir)
	zeroLink := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zeroLink); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, what string }{
		{fifo, "a named pipe"}, // would block forever without O_NONBLOCK
		{"/dev/zero", "a character device"},
		{zeroLink, "a character device"},
		{dir, "a directory"},
	} {
		_, err := ReadFile(tc.path, 1<<20)
		e := wantKind(t, err, KindNotRegular)
		if e.What != tc.what {
			t.Errorf("%s: What = %q; want %q", tc.path, e.What, tc.what)
		}
		if !strings.Contains(err.Error(), tc.path) || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("%s: message %q does not name the path and the reason", tc.path, err)
		}
	}
}

func TestReadFileLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadFile(path, 10); err != nil || string(got) != "0123456789" {
		t.Fatalf("ReadFile at the limit = %q, %v", got, err)
	}
	_, err := ReadFile(path, 9)
	e := wantKind(t, err, KindTooLarge)
	if e.Limit != 9 || !strings.Contains(err.Error(), "9 bytes") {
		t.Errorf("err = %v; want the limit named", err)
	}
}

func TestReadFileEmptyAndMissing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadFile(path, 10); err != nil || len(got) != 0 {
		t.Fatalf("empty file: %q, %v", got, err)
	}
	_, err := ReadFile(filepath.Join(t.TempDir(), "missing"), 10)
	wantKind(t, err, KindIO)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("errors.Is(err, fs.ErrNotExist) = false for %v", err)
	}
}

// A file that grows past the limit after Open (as /proc files, which
// report size 0, do) is still cut off while reading.
func TestOpenStopsReadingAtTheLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path, 5)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.WriteFile(path, []byte("abcdefghij"), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(f)
	wantKind(t, err, KindTooLarge)
	if len(data) > 6 {
		t.Errorf("read %d bytes past a limit of 5", len(data))
	}
}

// ReadAt reads within the limit and refuses any read that would go past
// it, however the offset is chosen.
func TestReadAtStaysWithinTheLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("abcdef"), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path, 8)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Mode().Perm() != 0o755 {
		t.Errorf("Mode = %v, want 0755", f.Mode())
	}
	p := make([]byte, 3)
	if n, err := f.ReadAt(p, 2); n != 3 || err != nil || string(p) != "cde" {
		t.Errorf("ReadAt(3, 2) = %d, %v, %q", n, err, p)
	}
	if n, err := f.ReadAt(p, 5); n != 1 || err != io.EOF {
		t.Errorf("ReadAt(3, 5) = %d, %v; want 1, EOF", n, err)
	}
	for _, off := range []int64{6, 9, -1, math.MaxInt64} {
		_, err := f.ReadAt(p, off)
		wantKind(t, err, KindTooLarge)
	}
}

func TestReadAll(t *testing.T) {
	if got, err := ReadAll(strings.NewReader("abc"), "stdin", 3); err != nil || string(got) != "abc" {
		t.Fatalf("ReadAll = %q, %v", got, err)
	}
	_, err := ReadAll(strings.NewReader("abcd"), "stdin", 3)
	wantKind(t, err, KindTooLarge)
	if !strings.Contains(err.Error(), "`stdin`") {
		t.Errorf("message %q does not name the input", err)
	}
	// An endless reader is cut off after limit+1 bytes.
	_, err = ReadAll(endless{}, "stdin", 1<<10)
	wantKind(t, err, KindTooLarge)
}

type endless struct{}

func (endless) Read(p []byte) (int, error) { return len(p), nil }

func TestWriteFileRefusesSurprises(t *testing.T) {
	dir := t.TempDir()
	fifo := mkfifo(t, dir)
	input := filepath.Join(dir, "in.yaml")
	if err := os.WriteFile(input, []byte("input\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.yaml")
	if err := os.Link(input, hard); err != nil {
		t.Fatal(err)
	}
	soft := filepath.Join(dir, "soft.yaml")
	if err := os.Symlink("in.yaml", soft); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink("nowhere", dangling); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		kind Kind
	}{
		{fifo, KindNotRegular},
		{"/dev/null", KindNotRegular},
		{dir, KindNotRegular},
		{input, KindIsInput},
		{hard, KindIsInput},
		{soft, KindIsInput},
		{dir + "/./in.yaml", KindIsInput},
		{dangling, KindDanglingLink},
	} {
		err := WriteFile(tc.path, []byte("out\n"), WriteOptions{Inputs: []string{input}})
		wantKind(t, err, tc.kind)
	}
	if data, _ := os.ReadFile(input); string(data) != "input\n" {
		t.Errorf("the input was changed to %q", data)
	}
	if info, err := os.Lstat(fifo); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the named pipe was replaced: %v %v", info, err)
	}
	assertNoTemps(t, dir)
}

// TestWriteFileRefusesAnOpenedInput: a file read through a descriptor
// (standard input redirected from it) is an input as much as a named one,
// under any name a link gives it; a pipe is no file a write lands on.
func TestWriteFileRefusesAnOpenedInput(t *testing.T) {
	dir := t.TempDir()
	input := filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(input, []byte("input\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink("in.jsonl", link); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(input)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	opened, ok := StatOpened(f, "<stdin>")
	if !ok {
		t.Fatal("a regular file is not taken as an opened input")
	}
	for _, path := range []string{input, link} {
		err := WriteFile(path, []byte("out\n"), WriteOptions{Opened: []OpenedInput{opened}})
		wantKind(t, err, KindIsInput)
		if err != nil && !strings.Contains(err.Error(), "<stdin>") {
			t.Errorf("the refusal %q does not name standard input", err)
		}
	}
	if data, _ := os.ReadFile(input); string(data) != "input\n" {
		t.Errorf("the input was changed to %q", data)
	}
	if err := WriteFile(filepath.Join(dir, "other.yaml"), []byte("out\n"), WriteOptions{Opened: []OpenedInput{opened}}); err != nil {
		t.Errorf("another destination is refused: %v", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if _, ok := StatOpened(r, "<stdin>"); ok {
		t.Error("a pipe is taken as an opened input")
	}
	assertNoTemps(t, dir)
}

func TestWriteFileThroughALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.svg")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.svg")
	if err := os.Symlink("target.svg", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("new"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}
	data, _ := os.ReadFile(target)
	info, _ := os.Stat(target)
	if string(data) != "new" || info.Mode().Perm() != 0o600 {
		t.Errorf("target = %q mode %v; want the new bytes and the old mode", data, info.Mode())
	}
	assertNoTemps(t, dir)
}

// TestWriteAtomicWindow covers what may change between WriteFile's checks
// and its rename. A destination that has become a directory makes the
// rename fail: the directory and what it holds are untouched and the
// temporary file is gone. A destination that has become a symbolic link to
// an input is replaced as a name, never written through: the input keeps
// its bytes.
func TestWriteAtomicWindow(t *testing.T) {
	dir := t.TempDir()
	becameDir := filepath.Join(dir, "out.svg")
	if err := os.MkdirAll(filepath.Join(becameDir, "kept"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeAtomic(becameDir, []byte("new"), 0o644); err == nil {
		t.Fatal("the rename over a non-empty directory succeeded")
	}
	if info, err := os.Stat(filepath.Join(becameDir, "kept")); err != nil || !info.IsDir() {
		t.Errorf("the directory was changed: %v %v", info, err)
	}
	assertNoTemps(t, dir)

	input := filepath.Join(dir, "in.yaml")
	if err := os.WriteFile(input, []byte("input\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	becameLink := filepath.Join(dir, "out.json")
	if err := os.Symlink("in.yaml", becameLink); err != nil {
		t.Fatal(err)
	}
	if err := writeAtomic(becameLink, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(input); string(data) != "input\n" {
		t.Errorf("the input was written through the link: %q", data)
	}
	if info, err := os.Lstat(becameLink); err != nil || !info.Mode().IsRegular() {
		t.Errorf("the link was not replaced by the new file: %v %v", info, err)
	}
	assertNoTemps(t, dir)
}

func TestWriteFileNewAndMakeDirs(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a", "b", "out.json")
	err := WriteFile(path, []byte("{}"), WriteOptions{})
	wantKind(t, err, KindIO)
	if err := WriteFile(path, []byte("{}"), WriteOptions{MakeDirs: true, Perm: 0o640}); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm()&^0o640 != 0 {
		t.Errorf("new file: %v %v", info, err)
	}
}

// TestWriteFileRefusesADirectoryName: a destination that can only name a
// directory — it ends in a separator, or its last element is `.` or `..` —
// is refused before anything is made: MakeDirs created `a/b/` and the
// rename onto it then failed with "file exists", leaving the directories.
func TestWriteFileRefusesADirectoryName(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a/b/", "a/b//", "a/b/.", "a/b/..", "a" + string(filepath.Separator)} {
		path := filepath.Join(dir, "x") + "/" + name
		err := WriteFile(path, []byte("out\n"), WriteOptions{MakeDirs: true})
		e := wantKind(t, err, KindDirectoryName)
		if want := "cannot write `" + path + "`: the path names a directory, not a file"; e.Error() != want {
			t.Errorf("%q: the refusal reads %q, want %q", name, e.Error(), want)
		}
		if _, err := os.Lstat(filepath.Join(dir, "x")); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("%q: a directory was made before the refusal (%v)", name, err)
		}
	}
	// An existing directory so named is refused the same way; a file path
	// with a `.` in it is not a directory name.
	wantKind(t, WriteFile(dir+"/", []byte("x"), WriteOptions{}), KindDirectoryName)
	if err := WriteFile(filepath.Join(dir, "a.b", "..c"), []byte("x"), WriteOptions{MakeDirs: true}); err != nil {
		t.Errorf("a file named `..c`: %v", err)
	}
	assertNoTemps(t, dir)
}

// TestWriteFileRefusesAnEmptyPath: an empty destination is refused before
// anything is made (a temporary file was created in the working directory,
// then the rename onto "" failed).
func TestWriteFileRefusesAnEmptyPath(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	e := wantKind(t, WriteFile("", []byte("x"), WriteOptions{MakeDirs: true}), KindIO)
	if e.Error() != "cannot write ``: the path is empty" {
		t.Errorf("the refusal reads %q", e.Error())
	}
	assertNoTemps(t, dir)
}

func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	tmp := filepath.Join(dir, ".out.tmp-1")
	if err := os.WriteFile(tmp, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	temps.add(tmp)
	RemoveTemps()
	if _, err := os.Stat(tmp); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("temporary file left: %v", err)
	}
}

func assertNoTemps(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int64]string{4 << 20: "4 MiB", 64 << 10: "64 KiB", 1000: "1000 bytes", 1<<20 + 1: "1048577 bytes"} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q; want %q", n, got, want)
		}
	}
}

// TestReason: a refusal, even wrapped, gives its reason without the path;
// any other error its own message.
func TestReason(t *testing.T) {
	_, err := ReadFile(filepath.Join(t.TempDir(), "missing.yaml"), 10)
	if got := Reason(fmt.Errorf("reading the task: %w", err)); got != "no such file or directory" {
		t.Errorf("wrapped refusal: %q", got)
	}
	if got := Reason(errors.New("plain")); got != "plain" {
		t.Errorf("plain error: %q", got)
	}
}

// TestWriteFilesNeverThroughALink: a write into a directory follows no
// symbolic link below it — a subdirectory that is one (leading out of the
// directory or staying in it) or a file that is one is refused, naming the
// link, before any file is written; the directory itself may be a link.
func TestWriteFilesNeverThroughALink(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "out")
	elsewhere := filepath.Join(base, "elsewhere")
	for _, d := range []string{filepath.Join(dir, "inside"), elsewhere} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	victim := filepath.Join(base, "victim.md")
	if err := os.WriteFile(victim, []byte("kept\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ link, target, rel string }{
		{"sub", elsewhere, "sub/a.md"},
		{"loop", "inside", "loop/a.md"},
		{"file.md", victim, "file.md"},
		{"deep", elsewhere, "deep/x/y.md"},
	} {
		link := filepath.Join(dir, tc.link)
		if err := os.Symlink(tc.target, link); err != nil {
			t.Fatal(err)
		}
		outs := []Output{{Rel: "first.md", Data: []byte("new\n")}, {Rel: tc.rel, Data: []byte("new\n")}}
		i, err := WriteFiles(dir, outs, WriteOptions{MakeDirs: true}, nil)
		e := wantKind(t, err, KindThroughLink)
		if i != 1 || e.What != link {
			t.Errorf("%s: refused output %d naming %q; want 1 naming %q", tc.rel, i, e.What, link)
		}
		if _, err := os.Stat(filepath.Join(dir, "first.md")); err == nil {
			t.Errorf("%s: a file was written before the refusal", tc.rel)
		}
		if err := os.Remove(link); err != nil {
			t.Fatal(err)
		}
	}
	if data, _ := os.ReadFile(victim); string(data) != "kept\n" {
		t.Errorf("the link's target was changed to %q", data)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Errorf("files landed out of the directory: %v", entries)
	}
	// The directory named by the caller may be a link.
	linked := filepath.Join(base, "linked")
	if err := os.Symlink(dir, linked); err != nil {
		t.Fatal(err)
	}
	var done []int
	if _, err := WriteFiles(linked, []Output{{Rel: "a/b.md", Data: []byte("x")}, {Rel: "c.md", Data: []byte("y")}}, WriteOptions{MakeDirs: true}, func(i int) { done = append(done, i) }); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "a", "b.md")); string(data) != "x" || len(done) != 2 {
		t.Errorf("through the named link: %q, done %v", data, done)
	}
	// A path that leaves the directory is refused.
	if _, err := WriteFiles(dir, []Output{{Rel: "../escape.md", Data: []byte("x")}}, WriteOptions{}, nil); err == nil {
		t.Error("an output out of the directory was written")
	}
	if _, err := os.Stat(filepath.Join(base, "escape.md")); err == nil {
		t.Error("escape.md was written")
	}
	assertNoTemps(t, dir)
}

// TestReadDirBounded: ReadDir returns a directory's entries sorted by
// name, refuses one holding more than its limit (KindTooManyEntries, the
// count named), and refuses a path that is not a directory, a named pipe
// included, without waiting on it.
func TestReadDirBounded(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"c", "a", "b"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := ReadDir(dir, 3)
	if err != nil || len(entries) != 3 || entries[0].Name() != "a" || entries[2].Name() != "c" {
		t.Fatalf("at the limit: %v %v", entries, err)
	}
	if _, err := ReadDir(dir, 2); !IsTooManyEntries(err) || !strings.Contains(err.Error(), "holds more than 2 entries") {
		t.Errorf("past the limit: %v", err)
	}
	if _, err := ReadDir(filepath.Join(dir, "a"), 3); err == nil || !strings.Contains(err.Error(), "it is a file, not a directory") {
		t.Errorf("a file: %v", err)
	}
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if _, err := ReadDir(fifo, 3); err == nil || !strings.Contains(err.Error(), "it is a named pipe, not a directory") {
		t.Errorf("a named pipe: %v", err)
	}
}
