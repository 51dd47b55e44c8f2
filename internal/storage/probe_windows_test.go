package storage

import (
	"testing"

	"golang.org/x/sys/windows"
)

// TestVolumeRoot: the volume of a drive path, a UNC path and their
// long-path forms.
func TestVolumeRoot(t *testing.T) {
	for in, want := range map[string]string{
		`C:\Users\ann\Pictures`:             `C:\`,
		`D:\`:                               `D:\`,
		`\\nas\photos\2024\a.jpg`:           `\\nas\photos\`,
		`\\?\C:\very\long\path`:             `C:\`,
		`\\?\UNC\nas\photos\very\long\path`: `\\nas\photos\`,
	} {
		if got := volumeRoot(in); got != want {
			t.Errorf("volumeRoot(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestClassifyVolume: UNC paths and mapped network drives are Network
// (the worker counts for latency); local disks are Unknown, with a reason.
func TestClassifyVolume(t *testing.T) {
	for _, c := range []struct {
		root      string
		driveType uint32
		want      Kind
	}{
		{`\\nas\photos\`, windows.DRIVE_UNKNOWN, Network},
		{`\\nas\photos\`, windows.DRIVE_REMOTE, Network},
		{`N:\`, windows.DRIVE_REMOTE, Network},
		{`C:\`, windows.DRIVE_FIXED, Unknown},
		{`E:\`, windows.DRIVE_REMOVABLE, Unknown},
		{`R:\`, windows.DRIVE_RAMDISK, Local},
		{`Q:\`, windows.DRIVE_NO_ROOT_DIR, Unknown},
	} {
		in := classifyVolume(c.root, c.driveType, "NTFS")
		if in.Kind != c.want || in.Reason == "" || in.Mount != c.root {
			t.Errorf("classifyVolume(%q, %d) = %+v, want kind %v with a reason", c.root, c.driveType, in, c.want)
		}
	}
	if n, why := Workers([]Info{classifyVolume(`N:\`, windows.DRIVE_REMOTE, "")}, nil, 0); n != NetworkWorkers {
		t.Errorf("Workers on a mapped network drive = %d (%s), want %d", n, why, NetworkWorkers)
	}
}

// TestProbeTempDir probes a real local folder and a path not created yet:
// not Network, and the filesystem's name is known.
func TestProbeTempDir(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{dir, dir + `\not\yet`} {
		in, err := Probe(p)
		if err != nil {
			t.Fatalf("Probe(%s): %v", p, err)
		}
		if in.Kind == Network || in.Reason == "" || in.FSType == "" {
			t.Errorf("Probe(%s) = %+v, want a local volume with its filesystem named", p, in)
		}
	}
}
