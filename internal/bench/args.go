package bench

import (
	"fmt"
	"strconv"
)

// ParseArgs reads `<count> [work-dir] [--scan-only] [--keep] [--workers N] [--dedup on|off]`
// (and, for profiling the stages, `--cpuprofile FILE` and `--memprofile FILE`).
func ParseArgs(args []string) (Config, error) {
	cfg := Config{Workers: 4, Seed: 1}
	var positional []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "--scan-only":
			cfg.ScanOnly = true
		case "--keep":
			cfg.Keep = true
		case "--workers", "--dedup", "--seed", "--cpuprofile", "--memprofile":
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
	return cfg, nil
}

func setValue(cfg *Config, flag, v string) error {
	switch flag {
	case "--workers":
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fmt.Errorf("--workers %q: want a positive number", v)
		}
		cfg.Workers = n
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
