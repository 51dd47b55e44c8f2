package eject

import (
	"os/exec"
	"path/filepath"
	"strings"
)

// Volumes ejects, with diskutil, the volumes under /Volumes holding the
// sources; the system disk and the library's volume are left alone.
func Volumes(sources []string, dest, backup string) ([]Result, error) {
	var out []Result
	done := map[string]bool{}
	lib, _ := filepath.Abs(dest)
	bak := ""
	if backup != "" {
		bak, _ = filepath.Abs(backup)
	}
	for _, src := range sources {
		res := Result{Source: src}
		abs, _ := filepath.Abs(src)
		parts := strings.Split(abs, "/")
		if len(parts) < 3 || parts[1] != "Volumes" {
			res.Why = "it is not on a volume under /Volumes"
			out = append(out, res)
			continue
		}
		res.Point = "/Volumes/" + parts[2]
		switch {
		case done[res.Point]:
			continue
		case lib == res.Point || strings.HasPrefix(lib, res.Point+"/"):
			res.Why = "the library is on the same volume (" + res.Point + ")"
		case bak != "" && (bak == res.Point || strings.HasPrefix(bak, res.Point+"/")):
			res.Why = "the backup is on the same volume (" + res.Point + ")"
		default:
			done[res.Point] = true
			b, err := exec.Command("diskutil", "eject", res.Point).CombinedOutput()
			res.Done, res.Why = err == nil, strings.TrimSpace(string(b))
			if err == nil {
				res.Why = "diskutil eject " + res.Point
			}
		}
		out = append(out, res)
	}
	return out, nil
}
