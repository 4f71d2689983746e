package structure

import (
	"cmp"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// benchFiles reads the files of the directory HONE_BENCH_DIR names whose
// language is lang, or skips the benchmark.
func benchFiles(b *testing.B, lang string) (paths []string, srcs [][]byte, size int64) {
	dir := os.Getenv("HONE_BENCH_DIR")
	if dir == "" {
		b.Skip("HONE_BENCH_DIR names no directory")
	}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || Language(p) != lang {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		paths, srcs = append(paths, p), append(srcs, src)
		size += int64(len(src))
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	if len(paths) == 0 {
		b.Skipf("no %s files under %s", lang, dir)
	}
	return paths, srcs, size
}

// BenchmarkExtractDir outlines every Python file under HONE_BENCH_DIR (e.g.
// a checkout of Django), or every file of the language HONE_BENCH_LANG
// names, per iteration, on GOMAXPROCS workers as the index does; it
// reports the CPU time spent and how many files fell back.
//
//	HONE_BENCH_DIR=/tmp/dj go test -run '^$' -bench ExtractDir -benchtime 3x ./structure
//	HONE_BENCH_DIR=/tmp/ts-app HONE_BENCH_LANG=typescript go test -run '^$' -bench ExtractDir/fallback ./structure
func BenchmarkExtractDir(b *testing.B) {
	for _, mode := range []struct {
		name string
		fn   func(string, []byte) Outline
	}{{"tree-sitter", Extract}, {"fallback", ExtractFallback}} {
		b.Run(mode.name, func(b *testing.B) {
			if mode.name == "tree-sitter" {
				needTreeSitter(b)
			}
			paths, srcs, size := benchFiles(b, cmp.Or(os.Getenv("HONE_BENCH_LANG"), "python"))
			b.SetBytes(size)
			before := ParseStats()
			cpu0, cpuOK := cpuTime()
			b.ResetTimer()
			for b.Loop() {
				var next atomic.Int64
				var wg sync.WaitGroup
				for range runtime.GOMAXPROCS(0) {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for {
							i := int(next.Add(1)) - 1
							if i >= len(paths) {
								return
							}
							mode.fn(paths[i], srcs[i])
						}
					}()
				}
				wg.Wait()
			}
			b.StopTimer()
			if cpu, ok := cpuTime(); ok && cpuOK {
				b.ReportMetric(float64(cpu-cpu0)/float64(b.N)/1e9, "cpu-s/op")
			}
			b.ReportMetric(float64(len(paths)), "files")
			after := ParseStats()
			b.ReportMetric(float64(after.Fallback-before.Fallback)/float64(b.N), "fallbacks/op")
			b.ReportMetric(float64(after.SyntaxErrors-before.SyntaxErrors)/float64(b.N), "syntax-errors/op")
		})
	}
}
