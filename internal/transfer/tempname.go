package transfer

// IsTempName reports whether name has the form of the executor's temp
// files (tests use it to check none is left). A name of that form is not
// proof of a temp: only a journal's record is.
func IsTempName(name string) bool { return isTempName(name) }
