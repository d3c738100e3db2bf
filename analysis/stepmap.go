package analysis

// mapChecks runs the findings of §8 under the step map.
func (a *analyzer) mapChecks() {}
