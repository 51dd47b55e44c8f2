package layout

import "testing"

// TestEveryWindowsDeviceNameIsMadeSafe: Windows also reserves COM and LPT
// with the superscript digits ¹ ² ³ (Latin-1 0xB9, 0xB2, 0xB3: Win32 counts
// them as digits; Node.js and cap-std had to add them), and CreateFile
// opens CONIN$ and CONOUT$ as the console. SafeName made CON, COM1 and
// LPT9 safe but left these, so a {make}/{model}/{folder} or a file name
// spelling one fails on Windows (under Wine: CONIN$ "Invalid handle";
// Wine does not reserve the superscripts, Windows 10/11 do).
func TestEveryWindowsDeviceNameIsMadeSafe(t *testing.T) {
	for _, name := range []string{"COM¹", "com²", "COM³.jpg", "LPT¹", "lpt².heic", "LPT³ .jpg", "CONIN$", "conout$.jpg"} {
		if got := SafeName(name); got == name {
			t.Errorf("SafeName(%q) = %q: a device name on Windows", name, got)
		}
	}
}
