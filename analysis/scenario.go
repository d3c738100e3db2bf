package analysis

// ScenarioFormat is the format a scenario mapping declares (§10.3).
const ScenarioFormat = "aep.scenario/1"
