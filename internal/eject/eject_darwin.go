package eject

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Volumes ejects, with diskutil, the volumes under /Volumes holding the
// sources, each once, when nothing keeps one: the library or the backup
// on the same device, or a photo or video on it that is in no library.
// The system disk ("/Volumes/Macintosh HD" is a link to /) is not under
// /Volumes once links are resolved, so it is never ejected.
func Volumes(req Request) ([]Result, error) {
	type vol struct {
		res  Result
		srcs []source
	}
	var order []*vol
	byPoint := map[string]*vol{}
	for _, src := range req.Sources {
		real, err := resolve(src)
		if err != nil {
			order = append(order, &vol{res: Result{Source: src, Why: fmt.Sprintf("cannot resolve %q: %v", src, err)}})
			continue
		}
		parts := strings.Split(real, "/")
		if len(parts) < 3 || parts[1] != "Volumes" || parts[2] == "" {
			order = append(order, &vol{res: Result{Source: src, Why: "it is not on a volume under /Volumes"}})
			continue
		}
		point := "/Volumes/" + parts[2]
		if v := byPoint[point]; v != nil {
			v.srcs = append(v.srcs, source{src, real})
			continue
		}
		v := &vol{res: Result{Source: src, Point: point}, srcs: []source{{src, real}}}
		byPoint[point] = v
		order = append(order, v)
	}
	out := make([]Result, 0, len(order))
	for _, v := range order {
		res := v.res
		if res.Point != "" {
			if res.Why = keepsVolume(res.Point, req); res.Why == "" {
				res.Stays = staysOn(volume{point: res.Point}, v.srcs, req)
				if !res.Stays.Keeps() {
					b, err := exec.Command("diskutil", "eject", res.Point).CombinedOutput()
					res.Done, res.Why = err == nil, strings.TrimSpace(string(b))
					if err == nil {
						res.Why = "diskutil eject " + res.Point
					}
				}
			}
		}
		out = append(out, res)
	}
	return out, nil
}

// keepsVolume says why the volume at point may not be ejected whatever
// is on it ("" when it may): the library or the backup on the same
// device, judged by the device number, so a link into the card is caught.
func keepsVolume(point string, req Request) string {
	dev, err := devOf(point)
	if err != nil {
		return fmt.Sprintf("cannot tell its device: %v", err)
	}
	for _, keep := range []struct{ what, path string }{{"library", req.Dest}, {"backup", req.Backup}} {
		if keep.path == "" {
			continue
		}
		p, err := resolve(keep.path)
		if err == nil {
			p, err = existing(p)
		}
		if err != nil {
			return fmt.Sprintf("cannot tell which device the %s is on: %v", keep.what, err)
		}
		if d, err := devOf(p); err == nil && d == dev {
			return fmt.Sprintf("the %s is on the same device (%s)", keep.what, point)
		}
	}
	return ""
}

// existing is p, or the deepest folder above it that exists.
func existing(p string) (string, error) {
	for {
		_, err := os.Lstat(p)
		if err == nil || !errors.Is(err, fs.ErrNotExist) {
			return p, err
		}
		parent := filepath.Dir(p)
		if parent == p {
			return "", err
		}
		p = parent
	}
}
