package analysis

import "testing"

func TestDebugPrint(t *testing.T) {
	ds, _ := analyzeTree(t, "testdata/cases/gate")
	t.Log("\n" + lines(ds))
}
