package bench

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
)

// PerDir is how many generated files share one source directory.
const PerDir = 500

// Real-size files are between these sizes, like a camera's JPEGs.
const (
	RealMin = 3 << 20
	RealMax = 5 << 20
)

// Shape says what each generated file looks like.
type Shape struct {
	Seed     int
	DupEvery int  // > 0: every DupEvery-th file is a byte copy of the one before
	RealSize bool // 3–5 MB with an incompressible payload, instead of ~1 KB
}

// Generate writes count small JPEGs with real EXIF under dir, PerDir to a
// directory. Capture dates are spread over twelve years; the same seed gives
// the same tree. Each file differs (date, subsec, a serial in the pixels'
// comment), so none are duplicates unless dupEvery > 0, which makes every
// dupEvery-th file a byte copy of the one before it.
func Generate(dir string, count, seed int, dupEvery int) error {
	return GenerateRange(dir, 0, count, Shape{Seed: seed, DupEvery: dupEvery})
}

// GenerateRange writes files from..to-1 of the tree sh describes (the
// incremental row adds files to a tree sorted before).
func GenerateRange(dir string, from, to int, sh Shape) error {
	jobs := make(chan int, 256)
	errs := make(chan error, 1)
	var wg sync.WaitGroup
	for w := 0; w < runtime.NumCPU()*2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf bytes.Buffer
			for i := range jobs {
				if err := writeOne(dir, i, sh, &buf); err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}
		}()
	}
	for i := from; i < to; i++ {
		if i%PerDir == 0 || i == from {
			if err := os.MkdirAll(sourceDir(dir, i), 0o755); err != nil {
				close(jobs)
				return fmt.Errorf("generate: %w", err)
			}
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
		return nil
	}
}

func sourceDir(dir string, i int) string {
	return filepath.Join(dir, fmt.Sprintf("DCIM%04d", i/PerDir))
}

// sourcePath is where the i-th generated file lives.
func sourcePath(dir string, i int) string {
	return filepath.Join(sourceDir(dir, i), fmt.Sprintf("IMG_%07d.JPG", i))
}

func writeOne(dir string, i int, sh Shape, buf *bytes.Buffer) error {
	n, seed := i, sh.Seed
	if sh.DupEvery > 0 && i%sh.DupEvery == sh.DupEvery-1 {
		n = i - 1 // same bytes as the previous file
	}
	rng := rand.New(rand.NewSource(int64(seed)*1_000_003 + int64(n)))
	start := time.Date(2012, 1, 1, 0, 0, 0, 0, time.UTC)
	when := start.Add(time.Duration(rng.Int63n(int64(12 * 365 * 24 * time.Hour))))
	buf.Reset()
	fixture.AppendJPEG(buf, fixture.EXIF{
		When: when, SubSec: fmt.Sprintf("%03d", rng.Intn(1000)), Offset: "+00:00",
		Camera: cameras[rng.Intn(len(cameras))], Comment: fmt.Sprintf("shoebox bench %d/%d", seed, n),
	})
	if sh.RealSize {
		growToRealSize(buf, rng)
	}
	return os.WriteFile(sourcePath(dir, i), buf.Bytes(), 0o644)
}

// growToRealSize turns the small JPEG in buf into a 3–5 MB one the way a
// camera's is laid out: the same Exif header first, then megabytes of
// entropy-coded scan data. The payload is random (incompressible, so no
// filesystem or link compresses it away) with no 0xFF byte, so it holds no
// marker and the header parsers see the same file structure.
func growToRealSize(buf *bytes.Buffer, rng *rand.Rand) {
	small := buf.Bytes()
	eoi := small[len(small)-2:] // FF D9 ends every JPEG
	size := RealMin + rng.Intn(RealMax-RealMin+1)
	out := make([]byte, 0, size)
	out = append(out, small[:len(small)-2]...)
	payload := make([]byte, size-len(out)-2)
	rng.Read(payload)
	for j, c := range payload {
		if c == 0xFF {
			payload[j] = 0xFE
		}
	}
	out = append(append(out, payload...), eoi...)
	buf.Reset()
	buf.Write(out)
}

var cameras = []fixture.Camera{
	{Make: "Canon", Model: "Canon EOS 5D Mark III"}, {Make: "NIKON CORPORATION", Model: "NIKON D750"},
	{Make: "Apple", Model: "iPhone 12"}, {Make: "SONY", Model: "ILCE-7M3"}, {Make: "FUJIFILM", Model: "X-T3"},
}
