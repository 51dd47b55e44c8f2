package transfer

// IsTempName reports whether name is one of the executor's temp files, so
// the planner can skip it (and have it removed) when listing a directory.
func IsTempName(name string) bool { return isTempName(name) }
