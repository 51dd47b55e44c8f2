package fsx

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// fsPlace is where an absolute, link-free path lies in its filesystem:
// the device and the path from that filesystem's root, read from the
// mount table. A bind mount shows a folder under a second name; both
// names have one place, so a folder reached through a bind mount is
// recognised inside the folder it shows.
func fsPlace(p string) (dev, inFS string, ok bool) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return "", "", false
	}
	defer f.Close()
	best := -1
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		// id parent major:minor root mountpoint options ... - type source ...
		fields := strings.Fields(sc.Text())
		if len(fields) < 5 {
			continue
		}
		root, point := unescapeMount(fields[3]), unescapeMount(fields[4])
		if !nameUnder(p, point) || len(point) < best {
			continue // later mounts on the same point cover earlier ones: >=
		}
		rest, _ := filepath.Rel(point, p)
		best, dev, inFS, ok = len(point), fields[2], filepath.Join(root, rest), true
	}
	return dev, inFS, ok && sc.Err() == nil
}

// unescapeMount undoes the octal escapes (\040 for a space) of the mount table.
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
