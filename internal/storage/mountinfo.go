package storage

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Mount is one line of /proc/self/mountinfo.
type Mount struct {
	Major, Minor uint32 // st_dev of files on the mount; major 0 for filesystems without a block device
	Root         string // directory of the filesystem mounted here (bind mounts and btrfs subvolumes)
	Point        string // mount point
	FSType       string // "ext4", "nfs4", "fuse.sshfs"
	Source       string // "/dev/sda1", "nas:/photos", "tmpfs"
}

// ParseMountinfo reads the format of proc(5) /proc/PID/mountinfo:
//
//	36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
//
// The optional fields before " - " vary in number; paths escape space,
// tab, newline and backslash as octal (\040).
func ParseMountinfo(r io.Reader) ([]Mount, error) {
	var mounts []Mount
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		m, err := parseMountLine(sc.Text())
		if err != nil {
			return nil, fmt.Errorf("mountinfo line %d: %w", line, err)
		}
		mounts = append(mounts, m)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read mountinfo: %w", err)
	}
	return mounts, nil
}

func parseMountLine(s string) (Mount, error) {
	left, right, ok := strings.Cut(s, " - ")
	f := strings.Fields(left)
	g := strings.Fields(right)
	if !ok || len(f) < 5 || len(g) < 2 {
		return Mount{}, fmt.Errorf("want \"ID PARENT MAJ:MIN ROOT POINT ... - TYPE SOURCE\", got %q", s)
	}
	maj, mnr, ok := strings.Cut(f[2], ":")
	major, err1 := strconv.ParseUint(maj, 10, 32)
	minor, err2 := strconv.ParseUint(mnr, 10, 32)
	if !ok || err1 != nil || err2 != nil {
		return Mount{}, fmt.Errorf("bad device number %q", f[2])
	}
	return Mount{
		Major: uint32(major), Minor: uint32(minor),
		Root: unescapeOctal(f[3]), Point: unescapeOctal(f[4]),
		FSType: g[0], Source: unescapeOctal(g[1]),
	}, nil
}

// unescapeOctal undoes the kernel's \ooo escapes in mountinfo paths.
func unescapeOctal(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && isOctal(s[i+1]) && isOctal(s[i+2]) && isOctal(s[i+3]) {
			b.WriteByte((s[i+1]-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0'))
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

// MountOf returns the mount holding the absolute, symlink-free path: the
// longest mount point that is path or a parent of it. Among equal mount
// points the last line wins, because a later mount covers an earlier one.
func MountOf(mounts []Mount, path string) (Mount, bool) {
	best, found := Mount{}, false
	for _, m := range mounts {
		if !under(path, m.Point) {
			continue
		}
		if !found || len(m.Point) >= len(best.Point) {
			best, found = m, true
		}
	}
	return best, found
}

// under reports whether path is dir or inside it.
func under(path, dir string) bool {
	if dir == "/" {
		return strings.HasPrefix(path, "/")
	}
	return path == dir || strings.HasPrefix(path, dir) && path[len(dir)] == '/'
}
