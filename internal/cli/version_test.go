package cli

import (
	"runtime/debug"
	"testing"
)

// TestVersionComesFromTheBuild: a module version wins, then the VCS stamp,
// and a build with neither says so instead of inventing a number.
func TestVersionComesFromTheBuild(t *testing.T) {
	stamp := func(main string, kv ...string) *debug.BuildInfo {
		info := &debug.BuildInfo{Main: debug.Module{Path: "shoebox", Version: main}}
		for i := 0; i < len(kv); i += 2 {
			info.Settings = append(info.Settings, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return info
	}
	rev := "0123456789abcdef0123456789abcdef01234567"
	cases := []struct {
		info *debug.BuildInfo
		want string
	}{
		{stamp("v1.4.2", "vcs.revision", rev), "v1.4.2"},
		{stamp("(devel)", "vcs.revision", rev, "vcs.time", "2026-12-02T21:00:00Z"), "devel-0123456789ab (2026-12-02T21:00:00Z)"},
		{stamp("(devel)", "vcs.revision", rev, "vcs.modified", "true"), "devel-0123456789ab+dirty"},
		{stamp("(devel)"), "devel"},
	}
	for _, c := range cases {
		if got := fromBuildInfo(c.info); got != c.want {
			t.Errorf("fromBuildInfo(%v) = %q, want %q", c.info.Settings, got, c.want)
		}
	}
	old := Version
	defer func() { Version = old }()
	Version = "v9.9.9"
	if got := version(); got != "v9.9.9" {
		t.Errorf("with -X Version: %q", got)
	}
}
