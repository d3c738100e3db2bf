package main

// The pages that report Go benchmarks only. Each is a Page with its runs;
// its wording is bench/runner/pages/<name>.md.tmpl.
func init() {
	register(&Page{Name: "workflow", Go: map[string]GoBench{
		"workflow": {Pkg: "./workflow", Bench: "LoadValidate|ComputeLayout", Benchtime: "1s", QuickBenchtime: "10x"},
	}})
	register(&Page{Name: "validate", Go: map[string]GoBench{
		"tree": {Pkg: "./tree", Bench: "LoadCorpus|LoadGenerated10000States", Benchtime: "5x", QuickBenchtime: "2x"},
	}})
	register(&Page{Name: "flow", Go: map[string]GoBench{
		"flow": {Pkg: "./flow", Bench: "CheckAndPlan", Benchtime: "5x", QuickBenchtime: "2x"},
	}})
	register(&Page{Name: "predicate", Go: map[string]GoBench{
		"predicate": {Pkg: "./predicate", Bench: ".", Benchtime: "1s", QuickBenchtime: "100x"},
	}})
}

// The language server's page: diagnostics after a one-line change against a
// full revalidation, and tree.WithFile against a whole load.
func init() {
	register(&Page{Name: "lsp", Go: map[string]GoBench{
		"lsp":  {Pkg: "./lsp", Bench: ".", Benchtime: "20x", QuickBenchtime: "5x"},
		"tree": {Pkg: "./tree", Bench: "WithFileCorpus|LoadCorpus", Benchtime: "100x", QuickBenchtime: "20x"},
	}})
}

// The analysis page: `analyze` of chains of 1,000 and 10,000 states, and a
// simulated walk.
func init() {
	register(&Page{Name: "analyze", Go: map[string]GoBench{
		"analysis": {Pkg: "./analysis", Bench: ".", Benchtime: "3x", QuickBenchtime: "1x"},
	}})
}
