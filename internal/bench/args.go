package bench

import (
	"fmt"
	"strconv"
)

// Usage is the command line ParseArgs reads.
const Usage = "<count> [work-dir] [--scan-only] [--keep] [--workers N|auto] [--meta-workers N] [--dedup on|off]\n" +
	"       [--real-size] [--cold] [--rerun] [--incremental N] [--compare] [--zip] [--life] [--mode copy|reflink] [--generate-only] [--label TEXT]\n" +
	"       [--history on|off|both]"

// option is one flag of the command line: a switch (takesValue false, set
// is called with "") or a flag followed by its value.
type option struct {
	takesValue bool
	set        func(v string) error
}

// options is the one table of every flag ParseArgs knows (and, for
// profiling the stages, `--cpuprofile FILE` and `--memprofile FILE`), each
// writing its field of cfg.
func options(cfg *Config) map[string]option {
	on := func(p *bool) option {
		return option{set: func(string) error { *p = true; return nil }}
	}
	text := func(p *string) option {
		return option{takesValue: true, set: func(v string) error { *p = v; return nil }}
	}
	count := func(flag string, p *int) option {
		return option{takesValue: true, set: func(v string) error { return positive(flag, v, p) }}
	}
	valued := func(set func(string) error) option { return option{takesValue: true, set: set} }
	return map[string]option{
		"--scan-only":     on(&cfg.ScanOnly),
		"--keep":          on(&cfg.Keep),
		"--real-size":     on(&cfg.RealSize),
		"--cold":          on(&cfg.Cold),
		"--rerun":         on(&cfg.Rerun),
		"--compare":       on(&cfg.Compare),
		"--zip":           on(&cfg.Zip),
		"--life":          on(&cfg.Life),
		"--generate-only": on(&cfg.GenerateOnly),
		"--cpuprofile":    text(&cfg.CPUProfile),
		"--memprofile":    text(&cfg.MemProfile),
		"--label":         text(&cfg.Label),
		"--meta-workers":  count("--meta-workers", &cfg.MetaWorkers),
		"--incremental":   count("--incremental", &cfg.Incremental),
		"--workers":       valued(cfg.setWorkers),
		"--seed":          valued(cfg.setSeed),
		"--mode":          valued(cfg.setMode),
		"--dedup":         valued(cfg.setDedup),
		"--history":       valued(cfg.setHistory),
	}
}

// ParseArgs reads the command line described by Usage.
func ParseArgs(args []string) (Config, error) {
	cfg := Config{Workers: 4, Seed: 1, Mode: "copy", History: HistoryOn}
	known := options(&cfg)
	var positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		opt, ok := known[a]
		if !ok {
			positional = append(positional, a)
			continue
		}
		v := ""
		if opt.takesValue {
			if i+1 >= len(args) {
				return cfg, fmt.Errorf("%s needs a value", a)
			}
			i++
			v = args[i]
		}
		if err := opt.set(v); err != nil {
			return cfg, err
		}
	}
	if err := cfg.setPositional(positional); err != nil {
		return cfg, err
	}
	if cfg.ScanOnly && (cfg.Rerun || cfg.Incremental > 0 || cfg.Compare || cfg.Zip || cfg.Life) {
		return cfg, fmt.Errorf("--scan-only copies nothing: it cannot be combined with --rerun, --incremental, --compare, --zip or --life")
	}
	return cfg, nil
}

func (cfg *Config) setPositional(positional []string) error {
	if len(positional) < 1 || len(positional) > 2 {
		return fmt.Errorf("want <count> [work-dir]")
	}
	n, err := strconv.Atoi(positional[0])
	if err != nil || n < 1 {
		return fmt.Errorf("count %q: want a positive number", positional[0])
	}
	cfg.Count = n
	if len(positional) == 2 {
		cfg.WorkDir = positional[1]
	}
	return nil
}

func (cfg *Config) setWorkers(v string) error {
	if v == "auto" {
		cfg.Workers = 0 // the pipeline chooses from the storage, as the CLI does
		return nil
	}
	return positive("--workers", v, &cfg.Workers)
}

func (cfg *Config) setSeed(v string) error {
	n, err := strconv.Atoi(v)
	if err != nil {
		return fmt.Errorf("--seed %q: want a number", v)
	}
	cfg.Seed = n
	return nil
}

func (cfg *Config) setMode(v string) error {
	if v != "copy" && v != "reflink" {
		return fmt.Errorf("--mode %q: want copy or reflink", v)
	}
	cfg.Mode = v
	return nil
}

func (cfg *Config) setDedup(v string) error {
	switch v {
	case "on":
		cfg.Dedup = true
	case "off":
		cfg.Dedup = false
	default:
		return fmt.Errorf("--dedup %q: want on or off", v)
	}
	return nil
}

func (cfg *Config) setHistory(v string) error {
	switch v {
	case HistoryOn, HistoryOff, HistoryBoth:
		cfg.History = v
		return nil
	}
	return fmt.Errorf("--history %q: want on, off or both", v)
}

func positive(flag, v string, dst *int) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return fmt.Errorf("%s %q: want a positive number", flag, v)
	}
	*dst = n
	return nil
}
