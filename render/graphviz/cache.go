package graphviz

import "github.com/aepflow/aepflow/render/graphviz/internal/wasmcache"

// By the time this runs, go-graphviz's init has compiled its WebAssembly
// module, or loaded it from the compilation cache that package wasmcache
// placed in the user's cache directory before that init ran; Done puts
// TMPDIR back and vouches for the cache entries.
func init() { wasmcache.Done() }

// CacheStatus returns the directory of the WebAssembly compilation cache,
// or, when there is none, why.
func CacheStatus() (dir, whyOff string) { return wasmcache.Status() }
