// Package spell suggests what a user probably meant when a name they typed
// (a template token, a config key) is not one of the names we know.
package spell

// maxLen caps the typed word: suggestions are for short names, and a
// hostile input must not make the quadratic distance expensive.
const maxLen = 32

// Closest returns the candidate nearest to word by edit distance, and that
// distance; ("", -1) when there are no candidates. Ties go to the earlier
// candidate.
func Closest(word string, candidates []string) (string, int) {
	best, bestDist := "", -1
	for _, c := range candidates {
		if d := Distance(word, c); bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	return best, bestDist
}

// Distance is the Levenshtein distance between a (cut to 32 bytes) and b.
func Distance(a, b string) int {
	if len(a) > maxLen {
		a = a[:maxLen]
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
