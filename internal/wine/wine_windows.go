package wine

import "syscall"

// Running reports whether this Windows program runs under Wine: Wine's
// ntdll.dll exports wine_get_version, Windows' does not (the check Wine's
// own documentation gives to programs).
func Running() bool {
	return syscall.NewLazyDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
}
