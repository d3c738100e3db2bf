package protocol

import (
	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/yamldoc"
)

// load parses data and decodes it with decode; the value is the zero T when
// the bytes are not a document.
func load[T any](file string, data []byte, decode func(*yamldoc.Document, *diag.List) T) (T, diag.List) {
	var zero T
	doc, diags := yamldoc.Parse(file, data)
	if doc == nil || diags.HasErrors() {
		return zero, diags
	}
	return decode(doc, &diags), diags
}

// LoadProtocol parses and decodes a protocol, then checks that each
// evidence kind it declares has a verifier among its own (a protocol
// extending another is checked with its chain by the tree). Shape errors
// do not hide the rule: it judges what decoded.
func LoadProtocol(file string, data []byte) (*Protocol, diag.List) {
	p, diags := load(file, data, DecodeProtocol)
	if p != nil && p.Extends == nil && !p.shakyExtends {
		diags.Extend(p.ValidateVerifiers(nil))
	}
	return p, diags
}

// LoadPrinciple parses and decodes a principle and refuses one that
// declares nothing enforceable (shape errors do not hide the rule).
func LoadPrinciple(file string, data []byte) (*Principle, diag.List) {
	p, diags := load(file, data, DecodePrinciple)
	if p != nil {
		diags.Extend(p.Validate())
	}
	return p, diags
}

// LoadProfile parses and decodes a profile.
func LoadProfile(file string, data []byte) (*Profile, diag.List) {
	return load(file, data, DecodeProfile)
}

// LoadLifecycle parses and decodes an artifact lifecycle.
func LoadLifecycle(file string, data []byte) (*Lifecycle, diag.List) {
	return load(file, data, DecodeLifecycle)
}
