package fsxtest

import "golang.org/x/sys/windows"

// wineVersion is ntdll's wine_get_version: exported by Wine's ntdll,
// never by Windows'.
var wineVersion = windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version")

// UnderWine reports whether this Windows program runs under Wine (as
// .ci/wine/exec.sh runs the test binaries), not on Windows itself. Tests
// use it only to skip or shorten what Wine cannot do or does slowly,
// saying why; docs/platforms.md lists every such case.
func UnderWine() bool { return wineVersion.Find() == nil }
