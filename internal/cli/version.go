package cli

import "runtime/debug"

// version is what `shoebox version` prints: the release's -X Version when
// set, else the module version the Go toolchain stamped (`go install
// …@v1.2.3`), else the VCS revision of a build from a checkout (with
// "+dirty" for uncommitted changes), else "devel".
func version() string {
	if Version != "" {
		return Version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return fromBuildInfo(info)
}

func fromBuildInfo(info *debug.BuildInfo) string {
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	rev := settings["vcs.revision"]
	if rev == "" {
		return "devel"
	}
	v := "devel-" + rev[:min(12, len(rev))]
	if t := settings["vcs.time"]; t != "" {
		v += " (" + t + ")"
	}
	if settings["vcs.modified"] == "true" {
		v += "+dirty"
	}
	return v
}
