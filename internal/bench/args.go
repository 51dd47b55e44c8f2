package bench

import (
	"fmt"
	"strconv"
)

// Usage is the command line ParseArgs reads.
const Usage = "<count> [work-dir] [--scan-only] [--keep] [--workers N|auto] [--meta-workers N] [--dedup on|off]\n" +
	"       [--real-size] [--cold] [--rerun] [--incremental N] [--compare] [--mode copy|reflink] [--generate-only] [--label TEXT]"

// ParseArgs reads the command line described by Usage (and, for profiling
// the stages, `--cpuprofile FILE` and `--memprofile FILE`).
func ParseArgs(args []string) (Config, error) {
	cfg := Config{Workers: 4, Seed: 1, Mode: "copy"}
	var positional []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "--scan-only":
			cfg.ScanOnly = true
		case "--keep":
			cfg.Keep = true
		case "--real-size":
			cfg.RealSize = true
		case "--cold":
			cfg.Cold = true
		case "--rerun":
			cfg.Rerun = true
		case "--compare":
			cfg.Compare = true
		case "--generate-only":
			cfg.GenerateOnly = true
		case "--workers", "--meta-workers", "--dedup", "--seed", "--cpuprofile", "--memprofile", "--incremental", "--mode", "--label":
			if i+1 >= len(args) {
				return cfg, fmt.Errorf("%s needs a value", a)
			}
			i++
			if err := setValue(&cfg, a, args[i]); err != nil {
				return cfg, err
			}
		default:
			positional = append(positional, a)
		}
	}
	if len(positional) < 1 || len(positional) > 2 {
		return cfg, fmt.Errorf("want <count> [work-dir]")
	}
	n, err := strconv.Atoi(positional[0])
	if err != nil || n < 1 {
		return cfg, fmt.Errorf("count %q: want a positive number", positional[0])
	}
	cfg.Count = n
	if len(positional) == 2 {
		cfg.WorkDir = positional[1]
	}
	if cfg.ScanOnly && (cfg.Rerun || cfg.Incremental > 0 || cfg.Compare) {
		return cfg, fmt.Errorf("--scan-only copies nothing: it cannot be combined with --rerun, --incremental or --compare")
	}
	return cfg, nil
}

func setValue(cfg *Config, flag, v string) error {
	switch flag {
	case "--workers":
		if v == "auto" {
			cfg.Workers = 0 // the pipeline chooses from the storage, as the CLI does
			return nil
		}
		return positive(flag, v, &cfg.Workers)
	case "--meta-workers":
		return positive(flag, v, &cfg.MetaWorkers)
	case "--incremental":
		return positive(flag, v, &cfg.Incremental)
	case "--seed":
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("--seed %q: want a number", v)
		}
		cfg.Seed = n
	case "--cpuprofile":
		cfg.CPUProfile = v
	case "--memprofile":
		cfg.MemProfile = v
	case "--label":
		cfg.Label = v
	case "--mode":
		if v != "copy" && v != "reflink" {
			return fmt.Errorf("--mode %q: want copy or reflink", v)
		}
		cfg.Mode = v
	case "--dedup":
		switch v {
		case "on":
			cfg.Dedup = true
		case "off":
			cfg.Dedup = false
		default:
			return fmt.Errorf("--dedup %q: want on or off", v)
		}
	}
	return nil
}

func positive(flag, v string, dst *int) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return fmt.Errorf("%s %q: want a positive number", flag, v)
	}
	*dst = n
	return nil
}
