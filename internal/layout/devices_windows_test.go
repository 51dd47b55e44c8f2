package layout

import (
	"os"
	"path/filepath"
	"testing"
)

// TestConsoleNamesAreMadeSafe: CreateFile opens "CONIN$" and "CONOUT$"
// (any case, with an extension too, as a folder in a path) as the console,
// not as a file, so a photo whose {make} or {model} is "CONIN$" failed
// under Wine ("check directory: CreateFile ...\CONIN$: Invalid handle.")
// where the README promises every segment is made safe for reserved names.
// (Windows 10 and 11 also reserve COM¹ to COM³ and LPT¹ to LPT³, the
// superscript digits; Wine does not, so only the console names are
// checked here.)
func TestConsoleNamesAreMadeSafe(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"CONIN$", "conout$", "CONIN$.jpg", "CONOUT$ .heic"} {
		safe := SafeName(name)
		p := filepath.Join(dir, safe)
		if err := os.WriteFile(p, []byte(name), 0o644); err != nil {
			t.Errorf("SafeName(%q) = %q: cannot create it: %v", name, safe, err)
			continue
		}
		os.Remove(p)
	}
}
