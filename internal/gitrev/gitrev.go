// Package gitrev reads the files of one git revision, read-only, by running
// git: `rev-parse` to find the repository and resolve the revision,
// `ls-tree` to list files, `cat-file --batch` to read them. It never checks
// anything out and never writes the index or the working tree (every git
// it runs has GIT_OPTIONAL_LOCKS=0, so not even a stat refresh of the index
// happens), and never fetches: every transport is forbidden, so an object
// the repository lacks is an error, not a connection.
//
// Every read is bounded before it is made: the listing by MaxListing bytes,
// each file by the caller's limit, checked against the size git lists
// before the contents are requested, and every git by the caller's
// context. A missing git is ErrNoGit. It is not a general git library: it
// knows one revision's files and nothing of history.
package gitrev

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aepflow/aepflow/internal/suggest"
)

// MaxListing bounds the bytes of one `git ls-tree` listing (about 200,000
// entries of ordinary length).
const MaxListing = 16 << 20

// maxStderr bounds what is kept of a git's standard error for messages.
const maxStderr = 8 << 10

// ErrNoGit is returned when no git executable is found on PATH.
var ErrNoGit = errors.New("git is not installed or not on PATH")

// ErrTooLarge is wrapped by errors about a listing or a file over its bound.
var ErrTooLarge = errors.New("over the size limit")

// Error is a git that ran and failed; Stderr holds the start of what it
// said.
type Error struct {
	// Args are the git arguments, without the leading `-C dir`.
	Args []string
	// Stderr is git's standard error, trimmed and bounded.
	Stderr string
	// Err is the process error (an exit status, a kill on timeout).
	Err error
}

// Error returns "git <args>: <stderr or process error>".
func (e *Error) Error() string {
	msg := e.Stderr
	if msg == "" {
		msg = e.Err.Error()
	}
	return "git " + strings.Join(e.Args, " ") + ": " + msg
}

// Unwrap returns the process error.
func (e *Error) Unwrap() error { return e.Err }

// Repo is the git repository holding one directory of its working tree.
type Repo struct {
	git    string
	top    string
	prefix string
}

// Open finds git and the repository that holds dir. The error is ErrNoGit
// when git is absent, an *Error when dir is not inside a working tree.
func Open(ctx context.Context, dir string) (*Repo, error) {
	git, err := exec.LookPath("git")
	if err != nil {
		return nil, ErrNoGit
	}
	r := &Repo{git: git, top: dir}
	out, err := r.output(ctx, 64<<10, "rev-parse", "--show-toplevel", "--show-prefix")
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 2 || lines[0] == "" {
		return nil, fmt.Errorf("git rev-parse: unexpected answer %q", out)
	}
	r.top, r.prefix = lines[0], lines[1]
	return r, nil
}

// Prefix returns the opened directory's path below the repository's top
// level, slash-separated, ending in `/` (empty at the top level).
func (r *Repo) Prefix() string { return r.prefix }

// ResolveTree returns the tree object id of revision rev (any revision git
// names: a branch, a tag, `HEAD~2`, an object id). A rev that is empty or
// starts with `-` is refused before git sees it, so it cannot be read as
// an option.
func (r *Repo) ResolveTree(ctx context.Context, rev string) (string, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return "", fmt.Errorf("%q is not a revision", rev)
	}
	out, err := r.output(ctx, 1024, "rev-parse", "--verify", "--quiet", rev+"^{tree}")
	if err != nil {
		var ge *Error
		if errors.As(err, &ge) && ge.Stderr == "" {
			msg := fmt.Sprintf("the repository has no revision %q", rev)
			if best, ok := suggest.Closest(rev, r.refNames(ctx)); ok {
				msg += fmt.Sprintf("; did you mean %q?", best)
			}
			return "", errors.New(msg)
		}
		return "", err
	}
	oid := strings.TrimSpace(string(out))
	if !isObjectID(oid) {
		// --verify answers a negated revision (`^HEAD`) with `^<oid>`.
		return "", fmt.Errorf("%q is not a revision: git resolves it to %q, not to one tree", rev, oid)
	}
	return oid, nil
}

// isObjectID reports whether s is a full object id: 40 (SHA-1) or 64
// (SHA-256) lower-case hexadecimal digits.
func isObjectID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// refNames returns HEAD and the short names of the repository's branches
// and tags (remote ones included), for a "did you mean"; none when git
// cannot list them. The listing is bounded as a tree's is.
func (r *Repo) refNames(ctx context.Context) []string {
	out, err := r.output(ctx, MaxListing, "for-each-ref", "--format=%(refname:short)", "refs/heads", "refs/tags", "refs/remotes")
	if err != nil {
		return []string{"HEAD"}
	}
	return append([]string{"HEAD"}, strings.Fields(string(out))...)
}

// Entry is one file of a listing.
type Entry struct {
	// Path is the file's path below the opened directory, slash-separated.
	Path string
	// Mode is git's file mode: 100644 and 100755 are regular files, 120000
	// a symbolic link, 160000 a submodule.
	Mode string
	// Type is the object type: blob, or commit for a submodule.
	Type string
	// OID is the object id.
	OID string
	// Size is the blob's size in bytes, -1 when git lists none (a
	// submodule).
	Size int64
}

// Regular reports whether the entry is a regular file (not a symbolic link
// nor a submodule).
func (e Entry) Regular() bool {
	return e.Type == "blob" && (e.Mode == "100644" || e.Mode == "100755")
}

// List returns every file under dirs (paths below the opened directory,
// slash-separated) in tree, recursively, in git's order. A dir the tree
// does not hold lists nothing.
func (r *Repo) List(ctx context.Context, tree string, dirs ...string) ([]Entry, error) {
	if strings.HasPrefix(tree, "-") {
		return nil, fmt.Errorf("%q is not a tree", tree)
	}
	args := []string{"ls-tree", "-r", "-z", "-l", "--full-tree", tree, "--"}
	for _, d := range dirs {
		args = append(args, r.prefix+strings.Trim(d, "/"))
	}
	out, err := r.output(ctx, MaxListing, args...)
	if err != nil {
		return nil, err
	}
	entries, err := ParseListing(out)
	if err != nil {
		return nil, err
	}
	var kept []Entry
	for _, e := range entries {
		rel, ok := strings.CutPrefix(e.Path, r.prefix)
		if !ok || !under(rel, dirs) {
			continue
		}
		e.Path = rel
		kept = append(kept, e)
	}
	return kept, nil
}

// under reports whether rel lies strictly below one of dirs.
func under(rel string, dirs []string) bool {
	for _, d := range dirs {
		if strings.HasPrefix(rel, strings.Trim(d, "/")+"/") {
			return true
		}
	}
	return false
}

// ParseListing reads the output of `git ls-tree -r -z -l`: records
// `<mode> <type> <oid> <size>\t<path>` ended by NUL, the size padded with
// spaces and `-` for a submodule.
func ParseListing(out []byte) ([]Entry, error) {
	var entries []Entry
	for len(out) > 0 {
		rec, rest, ok := bytes.Cut(out, []byte{0})
		if !ok {
			return nil, fmt.Errorf("git ls-tree: a record without its NUL end")
		}
		out = rest
		meta, p, ok := bytes.Cut(rec, []byte{'\t'})
		fields := strings.Fields(string(meta))
		if !ok || len(fields) != 4 || len(p) == 0 {
			return nil, fmt.Errorf("git ls-tree: malformed record %q", rec)
		}
		size := int64(-1)
		if fields[3] != "-" {
			n, err := strconv.ParseInt(fields[3], 10, 64)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("git ls-tree: bad size in %q", rec)
			}
			size = n
		}
		entries = append(entries, Entry{Path: string(p), Mode: fields[0], Type: fields[1], OID: fields[2], Size: size})
	}
	return entries, nil
}

// ReadBlobs returns the contents of each blob in oids, in order. A blob
// larger than limit bytes is an error wrapping ErrTooLarge, raised from
// git's header before its contents are read; callers that know the sizes
// from List should leave such blobs out.
func (r *Repo) ReadBlobs(ctx context.Context, oids []string, limit int64) ([][]byte, error) {
	if len(oids) == 0 {
		return nil, nil
	}
	var in bytes.Buffer
	for _, oid := range oids {
		if oid == "" || strings.ContainsAny(oid, " \t\n") || strings.HasPrefix(oid, "-") {
			return nil, fmt.Errorf("%q is not an object id", oid)
		}
		in.WriteString(oid + "\n")
	}
	var blobs [][]byte
	err := r.run(ctx, &in, func(out io.Reader) error {
		var err error
		blobs, err = ReadBatch(out, oids, limit)
		return err
	}, "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	return blobs, nil
}

// ReadBatch reads the answers of `git cat-file --batch` to oids from out:
// for each, a header `<oid> blob <size>` and the contents, or `<oid>
// missing`. Only blobs are accepted, each of at most limit bytes, checked
// from the header before anything is read or allocated.
func ReadBatch(out io.Reader, oids []string, limit int64) ([][]byte, error) {
	br := bufio.NewReaderSize(out, 4096)
	blobs := make([][]byte, 0, len(oids))
	for _, oid := range oids {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return nil, fmt.Errorf("git cat-file: reading the header of %s: %w", oid, unexpected(err))
		}
		fields := strings.Fields(string(line))
		switch {
		case len(fields) == 2 && fields[1] == "missing":
			return nil, fmt.Errorf("git cat-file: object %s is missing", oid)
		case len(fields) != 3 || fields[0] != oid:
			return nil, fmt.Errorf("git cat-file: unexpected header %q for %s", line, oid)
		case fields[1] != "blob":
			return nil, fmt.Errorf("git cat-file: object %s is a %s, not a file", oid, fields[1])
		}
		size, err := strconv.ParseInt(fields[2], 10, 64)
		if err != nil || size < 0 {
			return nil, fmt.Errorf("git cat-file: bad size in header %q", line)
		}
		if size > limit {
			return nil, fmt.Errorf("object %s is %d bytes, over the limit of %d bytes: %w", oid, size, limit, ErrTooLarge)
		}
		data := make([]byte, size+1)
		if _, err := io.ReadFull(br, data); err != nil {
			return nil, fmt.Errorf("git cat-file: reading %s: %w", oid, unexpected(err))
		}
		if data[size] != '\n' {
			return nil, fmt.Errorf("git cat-file: object %s does not end where its header says", oid)
		}
		blobs = append(blobs, data[:size])
	}
	return blobs, nil
}

// unexpected turns a clean end of input, which a reader expecting more
// data meets, into io.ErrUnexpectedEOF.
func unexpected(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// output runs git and returns at most limit bytes of its standard output;
// more is an error wrapping ErrTooLarge.
func (r *Repo) output(ctx context.Context, limit int64, args ...string) ([]byte, error) {
	var out []byte
	err := r.run(ctx, nil, func(stdout io.Reader) error {
		var err error
		out, err = io.ReadAll(io.LimitReader(stdout, limit+1))
		if err == nil && int64(len(out)) > limit {
			err = fmt.Errorf("git %s printed more than %d bytes: %w", args[0], limit, ErrTooLarge)
		}
		return err
	}, args...)
	return out, err
}

// readOnlyEnv is added to the environment of every git run. Besides
// keeping git off the index (GIT_OPTIONAL_LOCKS=0) and off the terminal,
// it forbids every transport: an object the repository lacks (a partial
// clone's blob, which `ls-tree -l` and `cat-file` would fetch from the
// promisor remote) fails the read instead of running the transport the
// repository configures (core.sshCommand, a remote helper). An empty
// GIT_ALLOW_PROTOCOL allows no protocol, whatever the configuration says;
// GIT_NO_LAZY_FETCH says the same to a git from 2.44 on.
var readOnlyEnv = []string{
	"GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "GIT_LITERAL_PATHSPECS=1", "GIT_PAGER=cat",
	"GIT_ALLOW_PROTOCOL=", "GIT_NO_LAZY_FETCH=1",
}

// locatingVars are the variables with which git is told where the
// repository, its work tree, index or objects are, instead of finding them
// from its directory (git's own local_repo_env, less the configuration).
// A git hook, or a shell driving another repository, leaves them set; the
// repository read is always the one holding the opened directory.
var locatingVars = []string{
	"GIT_DIR", "GIT_WORK_TREE", "GIT_IMPLICIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_GRAFT_FILE", "GIT_SHALLOW_FILE",
	"GIT_PREFIX", "GIT_NAMESPACE",
}

// repositoryFree returns env without locatingVars (named in any case, as
// Windows names them).
func repositoryFree(env []string) []string {
	kept := env[:0:0]
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.ContainsFunc(locatingVars, func(v string) bool { return strings.EqualFold(v, name) }) {
			kept = append(kept, kv)
		}
	}
	return kept
}

// run runs git with args in the repository, stdin from in (nil: none), and
// hands its standard output to consume. When consume fails, git is killed
// and consume's error returned; when git fails, an *Error.
func (r *Repo) run(ctx context.Context, in io.Reader, consume func(io.Reader) error, args ...string) error {
	cmd := exec.CommandContext(ctx, r.git, append([]string{"-C", r.top}, args...)...)
	cmd.Env = append(repositoryFree(os.Environ()), readOnlyEnv...)
	cmd.Stdin = in
	cmd.WaitDelay = time.Second
	stderr := &capped{max: maxStderr}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	readErr := consume(stdout)
	if readErr != nil {
		_ = cmd.Process.Kill()
	} else {
		// Drain what git still prints so that it can exit; nothing more is
		// expected, and a git that keeps printing is stopped by ctx.
		_, _ = io.Copy(io.Discard, stdout)
	}
	waitErr := cmd.Wait()
	if ctx.Err() != nil {
		return fmt.Errorf("git %s: %w", args[0], ctx.Err())
	}
	if readErr != nil {
		return readErr
	}
	if waitErr != nil {
		return &Error{Args: args, Stderr: strings.TrimSpace(stderr.String()), Err: waitErr}
	}
	return nil
}

// capped keeps the first max bytes written to it and drops the rest.
type capped struct {
	bytes.Buffer
	max int
}

// Write keeps what fits and reports every byte written, so that git never
// blocks on its standard error.
func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
