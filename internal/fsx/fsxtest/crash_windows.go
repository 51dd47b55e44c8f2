package fsxtest

import "golang.org/x/sys/windows"

// crash ends the process at once with code, as a crash would: os.Exit's
// ExitProcess first tells every loaded DLL and waits for it, which once
// left a crash child running for ten minutes under Wine while its other
// goroutines sat in file calls. TerminateProcess is what a kill does.
func crash(code int) {
	_ = windows.TerminateProcess(windows.CurrentProcess(), uint32(code))
	select {} // TerminateProcess on the current process does not return
}
