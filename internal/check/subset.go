package check

import (
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Subset is the slice of the library --read-data-subset reads: N/M reads
// the files whose path hashes to slice N of M, so M runs (N = 1..M) read
// every file once; P% reads the files whose path hashes below P of 100.
// The slice a file falls in depends on its path alone, so it is the same
// in every run (restic's check --read-data-subset is the model). The zero
// Subset is the whole library.
type Subset struct {
	N, M uint64 // 1 <= N <= M; M == 0: not a slice
	// Per10k is the percentage in hundredths (0 when N/M is used).
	Per10k uint64
}

// ErrSubset: a --read-data-subset value that is neither N/M nor P%.
var ErrSubset = errors.New("give N/M (1 <= N <= M, such as 1/12) or a percentage (such as 5%)")

// ParseSubset reads "N/M" or "P%".
func ParseSubset(s string) (Subset, error) {
	if p, ok := strings.CutSuffix(s, "%"); ok {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || !(f > 0 && f <= 100) {
			return Subset{}, fmt.Errorf("--read-data-subset %q: %w", s, ErrSubset)
		}
		return Subset{Per10k: max(1, uint64(f*100+0.5))}, nil
	}
	a, b, ok := strings.Cut(s, "/")
	n, err1 := strconv.ParseUint(a, 10, 64)
	m, err2 := strconv.ParseUint(b, 10, 64)
	if !ok || err1 != nil || err2 != nil || n < 1 || n > m {
		return Subset{}, fmt.Errorf("--read-data-subset %q: %w", s, ErrSubset)
	}
	return Subset{N: n, M: m}, nil
}

// Includes reports whether the library path p is in the slice.
func (s Subset) Includes(p string) bool {
	switch {
	case s.M > 0:
		return pathHash(p)%s.M == s.N-1
	case s.Per10k > 0:
		return pathHash(p)%10000 < s.Per10k
	}
	return true
}

// String is the subset as it was given.
func (s Subset) String() string {
	switch {
	case s.M > 0:
		return fmt.Sprintf("%d/%d", s.N, s.M)
	case s.Per10k > 0:
		return strconv.FormatFloat(float64(s.Per10k)/100, 'f', -1, 64) + "%"
	}
	return ""
}

// pathHash spreads paths evenly over the slices (FNV-1a: stable across
// versions and platforms, which a slice must be).
func pathHash(p string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(p))
	return h.Sum64()
}
