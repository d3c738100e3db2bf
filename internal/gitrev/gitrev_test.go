package gitrev

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// newRepo makes a git repository in a temporary directory, isolated from
// the user's and the system's git configuration, with files committed as
// given (path → contents), and returns its directory. It skips the test,
// saying so, when git is absent.
func newRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH; the tests that need a repository are skipped")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "config", "user.email", "t@example.com")
	git(t, dir, "config", "user.name", "t")
	writeFiles(t, dir, files)
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "first")
	return dir
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func TestListAndReadARevision(t *testing.T) {
	dir := newRepo(t, map[string]string{
		"tree/workflows/a.yaml":          "id: a\n",
		"tree/workflows/sub/b c.yml":     "id: b\n",
		"tree/workflows/new\nline.yaml":  "id: n\n",
		"tree/drivers/m.yaml":            "id: m\n",
		"tree/principles/p.yaml":         "id: p\n",
		"tree/workflowsx/not-mine.yaml":  "no\n",
		"outside/workflows/z.yaml":       "no\n",
		"tree/workflows/.archive/o.yaml": "old\n",
	})
	// The working tree moves on: the revision must still show the commit.
	writeFiles(t, dir, map[string]string{"tree/workflows/a.yaml": "id: changed\n", "tree/workflows/untracked.yaml": "x\n"})

	ctx := context.Background()
	r, err := Open(ctx, filepath.Join(dir, "tree"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Prefix() != "tree/" {
		t.Errorf("prefix = %q", r.Prefix())
	}
	oid, err := r.ResolveTree(ctx, "main")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := r.List(ctx, oid, "workflows", "drivers")
	if err != nil {
		t.Fatal(err)
	}
	var paths, oids []string
	for _, e := range entries {
		if !e.Regular() || e.Size <= 0 {
			t.Errorf("entry %+v", e)
		}
		paths = append(paths, e.Path)
		oids = append(oids, e.OID)
	}
	want := []string{"drivers/m.yaml", "workflows/.archive/o.yaml", "workflows/a.yaml", "workflows/new\nline.yaml", "workflows/sub/b c.yml"}
	if !slices.Equal(paths, want) {
		t.Fatalf("paths = %q, want %q", paths, want)
	}
	blobs, err := r.ReadBlobs(ctx, oids, 64)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, b := range blobs {
		got = append(got, string(b))
	}
	if strings.Join(got, "") != "id: m\nold\nid: a\nid: n\nid: b\n" {
		t.Errorf("contents = %q", got)
	}
}

func TestReadingTouchesNothing(t *testing.T) {
	dir := newRepo(t, map[string]string{"workflows/a.yaml": "id: a\n"})
	writeFiles(t, dir, map[string]string{"workflows/a.yaml": "id: dirty\n"})
	before := snapshot(t, dir)
	ctx := context.Background()
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	oid, err := r.ResolveTree(ctx, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := r.List(ctx, oid, "workflows")
	if err != nil || len(entries) != 1 {
		t.Fatalf("entries %v, %v", entries, err)
	}
	if _, err := r.ReadBlobs(ctx, []string{entries[0].OID}, 100); err != nil {
		t.Fatal(err)
	}
	if after := snapshot(t, dir); after != before {
		t.Errorf("reading a revision changed the repository or the working tree:\nbefore %s\nafter  %s", before, after)
	}
}

// snapshot digests every file under dir, .git included, with its mode and
// modification time.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		io.WriteString(h, p+info.Mode().String()+info.ModTime().String())
		h.Write(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(h.Sum(nil))
}

func TestRefusals(t *testing.T) {
	dir := newRepo(t, map[string]string{"workflows/a.yaml": strings.Repeat("x", 100)})
	ctx := context.Background()
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, rev := range []string{"", "--output=/tmp/x", "-h", "no-such-branch", "HEAD:missing", "^HEAD", "HEAD..HEAD", "HEAD\nHEAD"} {
		if _, err := r.ResolveTree(ctx, rev); err == nil {
			t.Errorf("ResolveTree(%q) succeeded", rev)
		}
	}
	// git's --verify answers `^HEAD` with `^<oid>`: not a tree to list.
	if _, err := r.ResolveTree(ctx, "^HEAD"); err == nil || !strings.Contains(err.Error(), `"^HEAD" is not a revision`) {
		t.Errorf("a negated revision: %v", err)
	}
	if _, err := r.ResolveTree(ctx, "no-such-branch"); err == nil || !strings.Contains(err.Error(), `no revision "no-such-branch"`) {
		t.Errorf("unknown revision: %v", err)
	}
	oid, _ := r.ResolveTree(ctx, "HEAD")
	entries, _ := r.List(ctx, oid, "workflows")
	if _, err := r.ReadBlobs(ctx, []string{entries[0].OID}, 99); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a 100-byte blob under a 99-byte limit: %v", err)
	}
	if _, err := r.ReadBlobs(ctx, []string{oid}, 1000); err == nil || !strings.Contains(err.Error(), "is a tree, not a file") {
		t.Errorf("a tree read as a blob: %v", err)
	}
	if _, err := r.ReadBlobs(ctx, []string{strings.Repeat("0", len(oid))}, 1000); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("a missing object: %v", err)
	}
	for _, bad := range []string{"", "-p", "a b"} {
		if _, err := r.ReadBlobs(ctx, []string{bad}, 10); err == nil {
			t.Errorf("ReadBlobs(%q) succeeded", bad)
		}
	}
	if entries, err := r.List(ctx, oid, "nothing-here"); err != nil || len(entries) != 0 {
		t.Errorf("a missing directory lists nothing: %v %v", entries, err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := r.List(cancelled, oid, "workflows"); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled context: %v", err)
	}
}

func TestSymlinksAndSubmodulesAreListedAsSuch(t *testing.T) {
	dir := newRepo(t, map[string]string{"workflows/a.yaml": "id: a\n"})
	if err := os.Symlink("a.yaml", filepath.Join(dir, "workflows", "link.yaml")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	head := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
	git(t, dir, "add", "workflows/link.yaml")
	git(t, dir, "update-index", "--add", "--cacheinfo", "160000,"+head+",workflows/sub.yaml")
	git(t, dir, "commit", "-q", "-m", "links")
	ctx := context.Background()
	r, _ := Open(ctx, dir)
	oid, _ := r.ResolveTree(ctx, "HEAD")
	entries, err := r.List(ctx, oid, "workflows")
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, e := range entries {
		kinds[e.Path] = e.Regular()
	}
	if len(kinds) != 3 || !kinds["workflows/a.yaml"] || kinds["workflows/link.yaml"] || kinds["workflows/sub.yaml"] {
		t.Errorf("entries %+v", entries)
	}
}

func TestNoGitAndNoRepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err == nil {
		if _, err := Open(context.Background(), t.TempDir()); err == nil {
			t.Error("a directory outside any repository opened")
		} else if ge := (*Error)(nil); !errors.As(err, &ge) || ge.Stderr == "" {
			t.Errorf("not a repository: %v", err)
		}
	}
	t.Setenv("PATH", t.TempDir())
	if _, err := Open(context.Background(), "."); !errors.Is(err, ErrNoGit) {
		t.Errorf("without git on PATH: %v", err)
	}
}

func TestParseListing(t *testing.T) {
	good := "100644 blob 0123 12\tw/a.yaml\x00160000 commit 4567       -\tw/s\x00120000 blob 89ab 6\tw/l\x00"
	entries, err := ParseListing([]byte(good))
	if err != nil || len(entries) != 3 || entries[0].Size != 12 || entries[1].Size != -1 || entries[2].Mode != "120000" {
		t.Fatalf("ParseListing = %+v, %v", entries, err)
	}
	for _, bad := range []string{
		"100644 blob 0123 12\tw/a.yaml",           // no NUL
		"100644 blob 0123\tw/a.yaml\x00",          // no size
		"100644 blob 0123 x\tw/a.yaml\x00",        // bad size
		"100644 blob 0123 -5\tw/a.yaml\x00",       // negative
		"100644 blob 0123 12 w/a.yaml\x00",        // no tab
		"100644 blob 0123 12\t\x00",               // no path
		"100644 blob 0123 12 extra\tw/a.yaml\x00", // five fields
	} {
		if _, err := ParseListing([]byte(bad)); err == nil {
			t.Errorf("ParseListing(%q) succeeded", bad)
		}
	}
}

func TestReadBatch(t *testing.T) {
	good := "aa blob 3\nabc\nbb blob 0\n\n"
	blobs, err := ReadBatch(strings.NewReader(good), []string{"aa", "bb"}, 3)
	if err != nil || len(blobs) != 2 || string(blobs[0]) != "abc" || len(blobs[1]) != 0 {
		t.Fatalf("ReadBatch = %q, %v", blobs, err)
	}
	for _, bad := range []string{
		"aa blob 3\nabc",              // no final LF
		"aa blob 3\nab",               // short
		"aa blob 3\nabcd\n",           // longer than said
		"aa blob 4\nabcd\n",           // over the limit
		"aa missing\n",                // missing
		"aa tree 3\nabc\n",            // not a blob
		"cc blob 3\nabc\n",            // another object
		"aa blob -1\n\n",              // negative
		"aa blob 99999999999999999\n", // huge: refused before allocating
		"aa blob 3",                   // header without LF
		strings.Repeat("a", 5000),     // header longer than the buffer
	} {
		if _, err := ReadBatch(strings.NewReader(bad), []string{"aa"}, 3); err == nil {
			t.Errorf("ReadBatch(%q) succeeded", bad)
		}
	}
}

func FuzzReadBatch(f *testing.F) {
	for _, s := range []string{"aa blob 3\nabc\n", "aa missing\n", "aa blob 99999999999999999\n", "aa blob 1\n\n\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		blobs, err := ReadBatch(bytes.NewReader(data), []string{"aa", "bb"}, 64)
		if err == nil && (len(blobs) != 2 || len(blobs[0]) > 64 || len(blobs[1]) > 64) {
			t.Fatalf("ReadBatch gave %q", blobs)
		}
	})
}

func FuzzParseListing(f *testing.F) {
	for _, s := range []string{"100644 blob 0123 12\tw/a.yaml\x00", "160000 commit 4567       -\tw/s\x00", "\x00", "a b c d\te\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := ParseListing(data)
		if err != nil {
			return
		}
		for _, e := range entries {
			if e.Path == "" || e.Size < -1 || strings.ContainsRune(e.Path, 0) {
				t.Fatalf("entry %+v from %q", e, data)
			}
		}
	})
}

// TestNoFetchFromAPromisorRemote reads a revision of a partial clone whose
// blobs were never fetched. Git would fetch them from the promisor remote,
// running the transport the repository configures (here core.sshCommand, a
// program the user never asked aepflow to run): the read must fail instead,
// and run nothing.
func TestNoFetchFromAPromisorRemote(t *testing.T) {
	src := newRepo(t, map[string]string{"workflows/a.yaml": "id: a\n"})
	writeFiles(t, src, map[string]string{"workflows/a.yaml": "id: a2\n"})
	git(t, src, "commit", "-q", "-am", "second")
	git(t, src, "config", "uploadpack.allowFilter", "true")
	dir := filepath.Join(t.TempDir(), "clone")
	git(t, src, "clone", "-q", "--filter=blob:none", "file://"+src, dir)
	ran := filepath.Join(t.TempDir(), "ran")
	prog := filepath.Join(t.TempDir(), "ssh")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\necho ran >> '"+ran+"'\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "config", "remote.origin.url", "ssh://example.invalid/x")
	git(t, dir, "config", "core.sshCommand", prog)

	ctx := context.Background()
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	oid, err := r.ResolveTree(ctx, "HEAD~1")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := r.List(ctx, oid, "workflows")
	if err == nil {
		_, err = r.ReadBlobs(ctx, []string{entries[0].OID}, 100)
	}
	if err == nil {
		t.Error("a blob the clone does not hold was read")
	}
	if _, statErr := os.Stat(ran); statErr == nil {
		t.Errorf("reading the revision ran the repository's core.sshCommand (%v)", err)
	}
}

// TestTheRepositoryHoldingTheDirectory sets what a git hook, or a shell
// that drives another repository, leaves in the environment: GIT_DIR,
// GIT_WORK_TREE, GIT_INDEX_FILE naming another repository, or this one's
// .git relatively. The repository read must still be the one holding the
// opened directory, with the directory's own prefix: GIT_DIR without
// GIT_WORK_TREE makes git take the current directory for the top, and the
// tree at another path would be compared.
func TestTheRepositoryHoldingTheDirectory(t *testing.T) {
	other := newRepo(t, map[string]string{"workflows/o.yaml": "other\n"})
	dir := newRepo(t, map[string]string{"tree/workflows/a.yaml": "id: a\n", "workflows/o.yaml": "top\n"})
	for _, env := range [][2]string{
		{"GIT_DIR", filepath.Join(dir, ".git")},
		{"GIT_DIR", ".git"},
		{"GIT_DIR", filepath.Join(other, ".git")},
		{"GIT_WORK_TREE", other},
		{"GIT_INDEX_FILE", filepath.Join(other, ".git", "index")},
		{"GIT_OBJECT_DIRECTORY", filepath.Join(other, ".git", "objects")},
		{"GIT_COMMON_DIR", filepath.Join(other, ".git")},
	} {
		t.Run(env[0]+"="+env[1], func(t *testing.T) {
			t.Setenv(env[0], env[1])
			ctx := context.Background()
			r, err := Open(ctx, filepath.Join(dir, "tree"))
			if err != nil {
				t.Fatal(err)
			}
			if r.Prefix() != "tree/" {
				t.Errorf("prefix = %q, want tree/", r.Prefix())
			}
			oid, err := r.ResolveTree(ctx, "HEAD")
			if err != nil {
				t.Fatal(err)
			}
			entries, err := r.List(ctx, oid, "workflows")
			if err != nil || len(entries) != 1 || entries[0].Path != "workflows/a.yaml" {
				t.Fatalf("entries %+v, %v", entries, err)
			}
			blobs, err := r.ReadBlobs(ctx, []string{entries[0].OID}, 100)
			if err != nil || string(blobs[0]) != "id: a\n" {
				t.Errorf("blob %q, %v", blobs, err)
			}
		})
	}
}
