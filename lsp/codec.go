package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/sourcegraph/jsonrpc2"
)

// Bounds of the base protocol's framing: a header line, and the number of
// header lines of one message.
const (
	maxHeaderLine  = 1 << 10
	maxHeaderLines = 16
)

// methodRefused is the method of the stand-in request the codec hands on
// in place of a message it could not accept (over the size bound, not
// JSON, not a JSON-RPC message): the server answers it with an error when
// the message's id could be read, and logs it to the client otherwise.
const methodRefused = "$/aepflow/refusedMessage"

// refusal is the params of a methodRefused stand-in.
type refusal struct {
	Reason string `json:"reason"`
	Code   int64  `json:"code"`
}

// codec reads and writes the LSP base protocol's messages (a
// Content-Length header, a blank line, a JSON body) with every read
// bounded: a header line, the header's lines and the body's length. It
// replaces jsonrpc2.VSCodeObjectCodec, which reads headers and bodies
// without a bound and closes the connection on the first body that is not
// a JSON-RPC message.
//
// Only a broken frame (no Content-Length or two that disagree, a header
// line too long, the stream ending mid-message) ends the connection: the
// stream cannot be trusted to resynchronise. A body over the bound is
// skipped without being held, and a body that is not a JSON-RPC message is
// replaced by a methodRefused stand-in, so the server answers or logs it
// and reads on.
type codec struct {
	maxBody int64
	// broken, when set, keeps the framing error that ended the stream, so
	// that Serve returns it: jsonrpc2 only logs it, after it has signalled
	// the disconnection, so a process that exits on that signal may end
	// before the log line is written.
	broken *framingError
}

// framingError holds the first error that broke a stream's framing.
type framingError struct {
	mu  sync.Mutex
	err error
}

// set keeps err unless an error is already kept.
func (f *framingError) set(err error) {
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err == nil {
		f.err = err
	}
}

// get returns the kept error, or nil.
func (f *framingError) get() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

// WriteObject implements jsonrpc2.ObjectCodec.
func (codec) WriteObject(w io.Writer, obj any) error {
	data, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "Content-Length: %d\r\n\r\n", len(data)); err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// ReadObject implements jsonrpc2.ObjectCodec. An error that ends the
// stream other than its clean end between messages is kept in c.broken.
func (c codec) ReadObject(r *bufio.Reader, v any) error {
	err := c.readObject(r, v)
	if err != nil && err != io.EOF {
		c.broken.set(err)
	}
	return err
}

// readObject reads one message into v; see ReadObject.
func (c codec) readObject(r *bufio.Reader, v any) error {
	length, err := readHeader(r)
	if err != nil {
		return err
	}
	if length > c.maxBody {
		if _, err := io.CopyN(io.Discard, r, length); err != nil {
			return fmt.Errorf("lsp: reading a message body: %w", err)
		}
		return standIn(v, nil, jsonrpc2.CodeInvalidRequest,
			fmt.Sprintf("a message of %d bytes is over the limit of %d bytes; it was ignored", length, c.maxBody))
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return fmt.Errorf("lsp: reading a message body: %w", err)
	}
	if err := json.Unmarshal(body, v); err != nil {
		code := int64(jsonrpc2.CodeInvalidRequest)
		if !json.Valid(body) {
			code = jsonrpc2.CodeParseError
		}
		return standIn(v, body, code, "the message is not a JSON-RPC 2.0 request, notification or response: "+err.Error())
	}
	return nil
}

// readHeader reads one message's header and returns its Content-Length.
func readHeader(r *bufio.Reader) (int64, error) {
	length := int64(-1)
	for lines := 0; ; lines++ {
		if lines == maxHeaderLines {
			return 0, errors.New("lsp: a message header has too many lines")
		}
		line, err := readLine(r)
		if err != nil {
			return 0, err
		}
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return 0, fmt.Errorf("lsp: a header line without a colon: %q", line)
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			// Digits only: ParseInt would also take a sign.
			v := strings.TrimSpace(value)
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || strings.TrimLeft(v, "0123456789") != "" {
				return 0, fmt.Errorf("lsp: a Content-Length that is not a byte count: %q", value)
			}
			// Two lengths that disagree leave the body's end unknown, as
			// in HTTP: no choice between them is safe.
			if length >= 0 && n != length {
				return 0, fmt.Errorf("lsp: a message header with two Content-Lengths, %d and %d", length, n)
			}
			length = n
		}
	}
	if length < 0 {
		return 0, errors.New("lsp: a message header without Content-Length")
	}
	return length, nil
}

// readLine reads one header line ending in CRLF, at most maxHeaderLine
// bytes, and returns it without the CRLF.
func readLine(r *bufio.Reader) (string, error) {
	var b bytes.Buffer
	for {
		c, err := r.ReadByte()
		if err != nil {
			if b.Len() == 0 && err == io.EOF {
				return "", io.EOF
			}
			return "", fmt.Errorf("lsp: reading a message header: %w", err)
		}
		if c == '\n' {
			if b.Len() == 0 || b.Bytes()[b.Len()-1] != '\r' {
				return "", errors.New(`lsp: header lines must end in \r\n`)
			}
			return string(b.Bytes()[:b.Len()-1]), nil
		}
		if b.Len() == maxHeaderLine {
			return "", fmt.Errorf("lsp: a header line longer than %d bytes", maxHeaderLine)
		}
		b.WriteByte(c)
	}
}

// standIn decodes into v a methodRefused request carrying the id of body
// when one can be read (so the refusal is answered), else a notification.
func standIn(v any, body []byte, code int64, reason string) error {
	msg := map[string]any{"jsonrpc": "2.0", "method": methodRefused, "params": refusal{Reason: reason, Code: code}}
	// A request (it has a method, whatever its type) whose id reads is
	// answered; anything else is logged.
	var probe map[string]json.RawMessage
	if body != nil && json.Unmarshal(body, &probe) == nil && len(probe["method"]) > 0 {
		var id jsonrpc2.ID
		if raw := probe["id"]; len(raw) > 0 && json.Unmarshal(raw, &id) == nil {
			msg["id"] = id
		}
	}
	data, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}
