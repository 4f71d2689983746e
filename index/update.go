package index

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hone-tools/hone/internal/atomicfile"
	"github.com/hone-tools/hone/internal/filelock"
	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/walk"
)

// commitEvery bounds a batch in time, beside commitFiles and commitBytes.
// A variable for tests, whose batches must not depend on how fast the
// machine runs them (the race detector slows them several times).
var commitEvery = time.Second

// Tuning of the writes.
const (
	// commitFiles, commitBytes and commitEvery bound a batch: the files
	// indexed, and so lost to a crash, in one transaction. A killed update
	// keeps what it committed, and the next one goes on from there.
	commitFiles = 256
	commitBytes = 4 << 20
	// segmentFiles and segmentBytes bound the delta while an update runs:
	// past either, it becomes a segment.
	segmentFiles = 4000
	segmentBytes = 32 << 20
	// lookahead is how many files the readers may be ahead of the writer.
	lookahead = 2048
	// flushAt is the delta size at which it becomes a segment.
	flushAt = 256
	// maxSegments: past it, the smaller segments are merged.
	maxSegments = 8
	// tombShare: past this share of tombstoned files, segments are merged
	// to drop them.
	tombShare = 0.25
)

// Stats reports an update.
type Stats struct {
	Files    int   // indexed after the update
	Added    int   // new files
	Changed  int   // files whose content changed
	Deleted  int   // files gone
	Touched  int   // files whose time changed but not their content
	Bytes    int64 // read and indexed
	Segments int   // segments written
	Merged   int   // segments merged away
	Elapsed  time.Duration
	// Skipped are the files the walk or the reads could not read.
	Skipped Skipped
}

// Progress reports an update under way.
type Progress struct {
	Done, Total int
	Bytes       int64
}

// Rebuild discards the index and builds it again.
// The rebuild is one transaction: other processes read the old index
// until it commits, and a rebuild killed midway leaves the old index as it
// was. A damaged index, one a read found damaged or one the rebuild finds
// so, is deleted instead and a new one built, with a notice: a rebuild
// always works.
func (ix *Index) Rebuild(ctx context.Context, progress func(Progress)) (Stats, error) {
	if ix.db == nil {
		return Stats{}, fmt.Errorf("rebuild index of %s: the index is closed", ix.Root)
	}
	if ix.readOnly != nil {
		return Stats{Files: ix.N()}, fmt.Errorf("%w: the index of %s was opened read-only (%v); free some space in %s",
			ErrFull, ix.Root, ix.readOnly, filepath.Dir(filepath.Dir(ix.Path)))
	}
	var st Stats
	err := ix.Err()
	if !isCorrupt(err) {
		st, err = ix.rebuild(ctx, progress)
	}
	if isCorrupt(err) {
		st, err = ix.renew(ctx, err, progress)
	}
	if isFull(err) {
		return st, ix.full(ctx, err)
	}
	return st, err
}

// renew deletes a damaged index, saying why, and builds a new one.
func (ix *Index) renew(ctx context.Context, cause error, progress func(Progress)) (Stats, error) {
	ix.notice(fmt.Sprintf("the index at %s is damaged (%s); building a new one", ix.Path, ix.why(cause)))
	if err := ix.remove(); err != nil {
		return Stats{}, err
	}
	if err := ix.open(ctx); err != nil {
		return Stats{}, err
	}
	ix.mu.Lock()
	ix.readErr = nil
	ix.mu.Unlock()
	st, err := ix.update(ctx, progress)
	if err != nil {
		return st, err
	}
	return st, ix.Snapshot(ctx)
}

// why says what an error of the index is, in a short line: without the
// index's path, which the notice gives once.
func (ix *Index) why(err error) string {
	s := err.Error()
	for _, verb := range []string{"read", "check", "write", "rebuild", "merge", "open", "create"} {
		s = strings.ReplaceAll(s, verb+" index "+ix.Path+": ", "")
	}
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200]) + "…"
	}
	return s
}

// IsDamaged reports whether err says the index file is damaged: SQLite's
// word for it, or a blob whose checksum does not match. Rebuild builds a
// new index then.
func IsDamaged(err error) bool { return isCorrupt(err) }

func (ix *Index) rebuild(ctx context.Context, progress func(Progress)) (Stats, error) {
	ix.endRead()
	if err := ix.journalWAL(ctx); err != nil {
		return Stats{}, err
	}
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return Stats{}, fmt.Errorf("rebuild index %s: %w", ix.Path, err)
	}
	defer tx.Rollback()
	ix.wtx = tx
	defer func() { ix.wtx = nil }()
	err = ix.write(ctx, "rebuild", func(w *writer) {
		for _, t := range []string{"files", "postings", "defs", "tomb", "snapshot", "binaries", "outlines", "cooc", "cooc_out"} {
			w.exec(`DELETE FROM ` + t)
		}
		w.touchVersion()
	})
	if err != nil {
		return Stats{}, err
	}
	if err := ix.loadCatalog(ctx); err != nil {
		return Stats{}, err
	}
	ix.dropListings()
	st, err := ix.update(ctx, progress)
	if err != nil {
		return st, err
	}
	ix.wtx = nil
	if err := tx.Commit(); err != nil {
		return st, fmt.Errorf("rebuild index %s: %w", ix.Path, err)
	}
	return st, ix.Snapshot(ctx)
}

// write runs fn in the rebuild's transaction when one is open, else in a
// transaction of its own.
func (ix *Index) write(ctx context.Context, what string, fn func(w *writer)) error {
	tx, own := ix.wtx, ix.wtx == nil
	if own {
		var err error
		if tx, err = ix.db.BeginTx(ctx, nil); err != nil {
			return fmt.Errorf("%s index %s: %w", what, ix.Path, err)
		}
		defer tx.Rollback()
	}
	w := writer{tx: tx, ctx: ctx, noThesaurus: ix.opts.NoThesaurus, steps: ix.steps, vouch: ix.moveVouch}
	fn(&w)
	if w.err != nil {
		return fmt.Errorf("%s index %s: %w", what, ix.Path, w.err)
	}
	if own {
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("%s index %s: %w", what, ix.Path, err)
		}
	}
	return nil
}

type change struct {
	file walk.File // with the status of the content read
	doc  *Doc      // the new content's doc, nil when only touched
	hash []byte    // of the content
	// checked is when the file's status was taken, 0 if it kept changing
	// as it was read.
	checked int64
	// refresh: neither the status nor the content changed; the file was
	// read again because its status was racy.
	refresh bool
	// err says why the file could not be read: it is skipped.
	err error
	// noop: nothing to write, the index has the file as it is.
	noop bool
	// isNew: the catalog did not hold the file when the update began. Its
	// row is written with no lookup by path first (writeBatch), unless
	// another process wrote one meanwhile.
	isNew bool
}

// testHookNoUpdateLock, when set, has Update take no lock: a test that
// plays another process writing during an update does so from within it.
var testHookNoUpdateLock bool

// Update brings the index up to date with the files on disk: a stat pass,
// then files whose size or time changed are read, and indexed again when
// their content did change. Deleted files are dropped. progress, if set, is
// called as files are indexed.
func (ix *Index) Update(ctx context.Context, progress func(Progress)) (Stats, error) {
	if ix.db == nil {
		return Stats{}, fmt.Errorf("update index of %s: the index is closed", ix.Root)
	}
	if ix.readOnly != nil {
		return Stats{Files: ix.N()}, fmt.Errorf("%w: the index of %s was opened read-only (%v) and answers as it was; free some space in %s",
			ErrFull, ix.Root, ix.readOnly, filepath.Dir(filepath.Dir(ix.Path)))
	}
	// One update of an index at a time: a second process waits, then
	// finds what the first wrote, rather than redo it beside it. It says
	// that it waits: the other may be a large repository's first index.
	unlock, waited, err := func() (func(), bool, error) {
		if testHookNoUpdateLock {
			return func() {}, false, nil
		}
		unlock, _, err := filelock.Lock(ctx, ix.Path+".lock", false)
		if !errors.Is(err, filelock.ErrHeld) {
			return unlock, false, err
		}
		ix.notice(fmt.Sprintf("waiting for another process that updates the index of %s", redact.QuotePath(ix.Root)))
		unlock, _, err = filelock.Lock(ctx, ix.Path+".lock", true)
		return unlock, true, err
	}()
	if err != nil {
		return Stats{}, fmt.Errorf("lock the updates of index %s: %w", ix.Path, err)
	}
	defer unlock()
	if waited {
		if err := ix.Snapshot(ctx); err != nil && !isCorrupt(err) {
			return Stats{}, err
		}
	}
	ix.endRead()
	st, err := ix.update(ctx, progress)
	if err == nil {
		err = ix.reclaim(ctx)
	}
	if err == nil {
		// Read what the update left, as one version.
		err = ix.Snapshot(ctx)
	}
	if isCorrupt(err) {
		st, err = ix.renew(ctx, err, progress)
	}
	if isFull(err) {
		return st, ix.full(ctx, err)
	}
	return st, err
}

// reclaim gives the file system back the pages an update freed, when they
// are a quarter of the index or more: an update that rewrites much of it
// (a checkout of another branch, segments merged) frees as many pages as
// it writes, which SQLite keeps for later writes. On a 5,000-file repository, checkouts of
// 2,300–3,100 changed files left 40% of its file free. The pages are moved
// into the gaps and the file cut (incremental vacuum, which every index
// of format 20 is made for: see walMode).
func (ix *Index) reclaim(ctx context.Context) error {
	var pages, free int64
	if err := ix.db.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
		return fmt.Errorf("read index %s: %w", ix.Path, err)
	}
	if err := ix.db.QueryRowContext(ctx, `PRAGMA freelist_count`).Scan(&free); err != nil {
		return fmt.Errorf("read index %s: %w", ix.Path, err)
	}
	if free < reclaimPages || free*4 < pages {
		return nil
	}
	if _, err := ix.db.ExecContext(ctx, `PRAGMA incremental_vacuum`); err != nil {
		return fmt.Errorf("give back the free pages of index %s: %w", ix.Path, err)
	}
	return nil
}

// reclaimPages: fewer free pages than this are kept for the next update.
const reclaimPages = 64

// Walked returns the slash paths of the folders the last update read, "."
// for the root, in walk order: those a change to the indexed files shows
// in, which a caller that watches the repository watches. It is nil before
// an update.
func (ix *Index) Walked() []string {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return slices.Clone(ix.walked)
}

// WorkTrees returns the slash paths of the folders the last update's walk
// met that are the tops of nested git work trees (submodules, or any
// repository inside this one): git's files there decide what the index
// takes in them (walk.WorkTreeRuleFiles), and a caller that watches the
// repository watches them. It is nil before an update.
func (ix *Index) WorkTrees() []string {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return slices.Clone(ix.trees)
}

func (ix *Index) update(ctx context.Context, progress func(Progress)) (Stats, error) {
	start := time.Now()
	var st Stats
	var steps []versionStep
	ix.steps = &steps
	defer func() { ix.steps = nil }()
	// Another process may have updated the index since it was opened.
	v, err := ix.version(ctx)
	if err != nil {
		return st, err
	}
	// An index checked as it is now needs no check for what this update
	// writes (see CheckChanged).
	if ix.wtx == nil && ix.stampHolds(v) {
		ix.vouchFor(v)
	}
	ix.mu.Lock()
	stale := v != ix.loaded || ix.cat == nil && ix.pending == nil
	ix.mu.Unlock()
	// The catalog, and the binaries' statuses, are read while the walk's
	// workers take the files' statuses: the walk waits for them at its
	// first file only. Files known unchanged keep their kind, and binaries
	// stay skipped, without reading a byte: the walk is stat calls.
	//
	// A catalog not read yet is not made at all while the update finds
	// no change: its snapshot, in the order of the walk, is read along
	// with it (a snapshotWalk), and the entries are made when first used
	// (Index.catalog), which for hone index is never. At 100,000 files
	// making them took a fifth of a no-change update.
	walkCtx, stopWalk := context.WithCancel(ctx)
	defer stopWalk()
	var cat map[string]*Entry
	var catVersion string   // the version cat was read at
	var catOrdered []*Entry // cat's entries in the order of their paths, if known
	var snap *snapshotWalk
	var bins map[string]stamp
	var loadErr error
	loaded := make(chan struct{})
	go func() {
		defer close(loaded)
		if stale {
			if snap, loadErr = ix.readSnapshotWalk(ctx, v); loadErr != nil {
				stopWalk()
				return
			}
			if snap == nil {
				if loadErr = ix.loadCatalog(ctx); loadErr != nil {
					stopWalk()
					return
				}
			}
		}
		if snap == nil {
			ix.mu.Lock()
			cat, catVersion = ix.catalog(), ix.loaded
			ix.mu.Unlock()
		}
		if bins, loadErr = ix.loadBinaries(ctx); loadErr != nil {
			stopWalk()
		}
	}()
	defer func() { <-loaded }() // nothing outlives the call
	ready := func() bool {
		<-loaded
		return loadErr == nil
	}
	// entry is the catalog's entry of a file the walk met, nil if none.
	entry := func(path string) *Entry {
		if snap != nil {
			return snap.seek(path)
		}
		return cat[path]
	}
	binsNow := map[string]stamp{}
	// Every status is taken after this time: a file whose times are not
	// well before it is racy.
	checked := time.Now().UnixNano()
	var walked, trees []string
	listings := ix.loadListings()
	// What changed is known as the walk goes: no list of every file is
	// kept, which at 100,000 files cost a tenth of a no-change update;
	// the files to read are the feed's (q, below).
	var total int64
	// The catalog's files the walk met; with a snapshotWalk, every file
	// it met, the catalog being unknown until the walk is done.
	var seenPaths []string
	// The entry Seen looked up, which the walk's callback for the same
	// file, called next, takes rather than look it up again.
	var seenPath string
	var seenEntry *Entry
	// The files are read and analyzed in parallel as the walk finds them
	// (a feed), and written in batches, in order, once it is over. A file
	// the catalog knows is read after the walk, with the hashes that tell
	// whether its content changed.
	var hashes map[int64][]byte // read before the feed closes
	q := newFeed()
	readCtx, stopReads := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		q.stop()
		stopReads()
		wg.Wait()
	}()
	next := make(chan feedItem)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range next {
				src, f, fileChecked, err := readFile(ix.Root, it.file, checked, ix.maxFileSize())
				if err != nil {
					it.res <- change{file: f, err: err}
					continue
				}
				if src != nil {
					// The kind of the content read, as a walk now would
					// give it: a file may have become generated since
					// the walk read its head.
					f.Kind = walk.Classify(f.Path, src[:min(len(src), walk.HeadSize)])
				}
				sum := sha256.Sum256(src)
				c := change{file: f, hash: sum[:hashSize], checked: fileChecked}
				var e *Entry
				if !it.early {
					e = cat[f.Path]
				}
				c.isNew = e == nil // an early file's entry is nil: that made it early
				if e == nil || !bytes.Equal(hashes[e.ID], c.hash) || e.Kind != f.Kind {
					c.doc = analyzeWith(f, src, !ix.opts.NoThesaurus)
					c.doc.hash, c.doc.checked = c.hash, c.checked
				} else if c.refresh = e.sameStat(f); c.refresh {
					// Read again for being racy, and unchanged. Still racy,
					// as a file dated in the future stays until then, it
					// has nothing to write.
					again := *e
					again.checked = c.checked
					c.noop = again.racy()
				}
				it.res <- c
			}
		}()
	}
	// The readers stay at most window files ahead of the writer, so that a
	// big repository is never all in memory at once.
	window := make(chan struct{}, lookahead)
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(next)
		for i := 0; ; i++ {
			it, ok := q.get(i)
			if !ok {
				return
			}
			select {
			case window <- struct{}{}:
			case <-readCtx.Done():
				return
			}
			select {
			case next <- it:
			case <-readCtx.Done():
				return
			}
		}
	}()
	// The indexes' own folder, where the user keeps it inside the
	// repository (--index-dir .hone), is no part of it: its files change
	// with every update.
	own := ownFolder(ix.Root, filepath.Dir(filepath.Dir(ix.Path)))
	if own == "" {
		own = ownFolder(ix.Root, filepath.Dir(ix.Path)) // the indexes kept at the root itself
	}
	err = walk.Walk(walkCtx, ix.Root, walk.Options{
		Dir: func(p string) {
			// The indexes' own folder is no folder to watch: every
			// update writes there.
			if own == "" || p != own && !strings.HasPrefix(p, own+"/") {
				walked = append(walked, p)
			}
		},
		WorkTree:    func(p string) { trees = append(trees, p) },
		Listings:    listings,
		MaxFileSize: ix.opts.MaxFileSize,
		OnError: func(p string, err error) error {
			st.Skipped.skip(p, err)
			return nil
		},
		Seen: func(f walk.File) (walk.Kind, bool, bool) {
			if !ready() {
				return 0, false, false // the walk is stopped
			}
			e := entry(f.Path)
			seenPath, seenEntry = f.Path, e
			if e != nil && e.clean(f) {
				return e.Kind, false, true
			}
			if b, ok := bins[f.Path]; ok && b.clean(f) {
				binsNow[f.Path] = b
				return 0, true, true
			}
			return 0, false, false
		},
		Binary: func(f walk.File) {
			binsNow[f.Path] = stampOf(f, checked)
		},
	}, func(f walk.File) error {
		if !ready() {
			return loadErr
		}
		if own != "" && strings.HasPrefix(f.Path, own+"/") {
			return filepath.SkipDir
		}
		if seenPaths == nil {
			seenPaths = make([]string, 0, len(cat)+snap.len())
		}
		e := seenEntry
		if f.Path != seenPath {
			e = entry(f.Path)
		}
		if e != nil || snap != nil {
			seenPaths = append(seenPaths, f.Path)
		}
		if e != nil && snap != nil {
			snap.found++
		}
		if e == nil || !e.clean(f) || e.Kind != f.Kind {
			total += f.Size
			// A new file is read now; one the catalog knows, or any
			// file while a test's hook waits to change files after the
			// walk, at its end.
			q.add(f, e == nil && snap == nil && testHookAfterWalk == nil)
		}
		return nil
	})
	if !ready() {
		return st, loadErr
	}
	if err != nil {
		return st, fmt.Errorf("update index of %s: %w", ix.Root, err)
	}
	todo := q.files() // the walk is over: the feed grows no more
	ix.mu.Lock()
	ix.walked, ix.trees = walked, trees
	ix.mu.Unlock()
	ix.saveListings(listings)
	if testHookAfterWalk != nil {
		testHookAfterWalk()
	}
	if !sameStamps(bins, binsNow) {
		if err := ix.saveBinaries(ctx, binsNow); err != nil {
			return st, err
		}
	}
	if snap != nil {
		if len(todo) == 0 && snap.all() && snap.sum.inDelta < flushAt {
			// Every file of the catalog met, unchanged, and nothing new.
			ix.mu.Lock()
			ix.setPending(v, snap.data, snap.sum)
			ix.mu.Unlock()
			st.Files = snap.sum.files
			st.Elapsed = time.Since(start)
			return st, ix.saveSkipped(ctx, st.Skipped)
		}
		// Something changed: the catalog is made, as the rest needs it.
		entries, err := decodeEntries(snap.data)
		if err != nil {
			return st, fmt.Errorf("read index %s: %w", ix.Path, err)
		}
		ix.mu.Lock()
		ix.setLoaded(entries, v, true)
		cat, catVersion, catOrdered = ix.cat, v, entries
		ix.mu.Unlock()
	}
	var gone []string
	if len(seenPaths) < len(cat) || snap != nil && !snap.all() {
		// Paths are met once each: only then is a file of the catalog gone.
		seen := make(map[string]bool, len(seenPaths))
		for _, p := range seenPaths {
			seen[p] = true
		}
		for p := range cat {
			if !seen[p] {
				gone = append(gone, p)
			}
		}
		sort.Strings(gone)
	}
	if len(todo) == 0 && len(gone) == 0 && ix.complete() {
		st.Files = len(cat)
		st.Elapsed = time.Since(start)
		return st, ix.saveSkipped(ctx, st.Skipped)
	}

	// The content hashes of the catalog's files to read, which tell a
	// file touched from one changed: the catalog holds none.
	var ids []int64
	for _, it := range todo {
		if e := cat[it.file.Path]; e != nil {
			ids = append(ids, e.ID)
		}
	}
	h, err := readHashes(ctx, ix.reader(), ids)
	if err != nil {
		return st, fmt.Errorf("read index %s: %w", ix.Path, err)
	}
	hashes = h
	q.close() // the catalog's files may be read now

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	var batch []change
	var batchSize int64
	var done int
	var read int64
	// The docs this update put in the delta, by id, until it is flushed.
	pending := map[int64]*Doc{}
	wrote := false        // whether any change was written
	var vanished []string // the catalog's files gone since the walk
	lastCommit := time.Now()
	write := func(final bool, gone []string) error {
		n, err := ix.writeBatch(ctx, batch, gone, pending, final, &st)
		st.Segments += n
		batch, batchSize, lastCommit = batch[:0], 0, time.Now()
		return err
	}
	for i := range todo {
		var c change
		select {
		case c = <-todo[i].res:
			<-window
		case <-ctx.Done():
			return st, ctx.Err()
		}
		done++
		if c.err == nil {
			read += c.file.Size
		}
		if progress != nil {
			progress(Progress{Done: done, Total: len(todo), Bytes: read})
		}
		if errors.Is(c.err, fs.ErrNotExist) {
			// Gone since the walk met it (a checkout under way): out of
			// the index, if it was there, as a file the walk missed is.
			if cat[c.file.Path] != nil {
				vanished = append(vanished, c.file.Path)
			}
			continue
		}
		if c.err != nil {
			st.Skipped.skip(c.file.Path, c.err)
			continue
		}
		if c.noop {
			continue
		}
		wrote = true
		batch = append(batch, c)
		batchSize += c.file.Size
		if len(batch) >= commitFiles || batchSize >= commitBytes || time.Since(lastCommit) >= commitEvery {
			if err := write(false, nil); err != nil {
				return st, err
			}
		}
	}
	wg.Wait()
	st.Bytes = read
	if len(vanished) > 0 {
		gone = append(gone, vanished...)
		sort.Strings(gone)
	}
	if !wrote && len(gone) == 0 && ix.complete() {
		// Only racy files read again, unchanged: nothing to write.
		st.Files = len(cat)
		st.Elapsed = time.Since(start)
		return st, ix.saveSkipped(ctx, st.Skipped)
	}
	if err := write(true, gone); err != nil {
		return st, err
	}
	merged, err := ix.maybeMerge(ctx)
	if err != nil {
		return st, err
	}
	st.Merged = merged
	// The snapshot is the catalog with the files this update wrote read
	// again, if no segment moved and no other process wrote meanwhile.
	var base *snapshotBase
	if st.Segments == 0 && merged == 0 && len(todo)+len(gone) <= maxChangedRead {
		base = &snapshotBase{catalog: cat, ordered: catOrdered, version: catVersion, steps: steps, changed: slices.Clone(gone)}
		for _, it := range todo {
			base.changed = append(base.changed, it.file.Path)
		}
	}
	entries, version, err := ix.snapshot(ctx, base)
	if err != nil {
		return st, err
	}
	if err := ix.saveSkipped(ctx, st.Skipped); err != nil {
		return st, err
	}
	// The catalog is what the snapshot holds, of its version.
	ix.mu.Lock()
	ix.setLoaded(entries, version, true)
	ix.mu.Unlock()
	st.Files = ix.N()
	st.Elapsed = time.Since(start)
	return st, nil
}

// complete reports whether the index needs no write when no file changed:
// it was written (an empty repository's too), its last update finished,
// and the delta is small. A killed update leaves the catalog's snapshot
// behind and maybe a large delta: the next update ends what it began.
func (ix *Index) complete() bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.loaded != "" && ix.snapshotOK && ix.inDelta < flushAt
}

// testHookAfterWalk, if set, runs between the walk and the reads of an
// update: tests change files there, as an editor would.
var testHookAfterWalk func()

// stamp is what tells whether a binary file changed: its status, and when
// it was taken.
type stamp struct {
	size, mtime    int64
	ino            uint64
	ctime, checked int64
}

func stampOf(f walk.File, checked int64) stamp {
	return stamp{size: f.Size, mtime: nanos(f.ModTime), ino: f.Inode, ctime: nanos(f.ChangeTime), checked: checked}
}

// clean is Entry.clean for a binary file.
func (s stamp) clean(f walk.File) bool {
	e := Entry{Size: s.size, ModTime: s.mtime, ino: s.ino, ctime: s.ctime, checked: s.checked}
	return e.clean(f)
}

func sameStamps(a, b map[string]stamp) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// loadBinaries reads the files skipped as binary at the last update.
func (ix *Index) loadBinaries(ctx context.Context) (map[string]stamp, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT path, size, mtime, ino, ctime, checked FROM binaries`)
	if err != nil {
		return nil, fmt.Errorf("read index %s: %w", ix.Path, err)
	}
	defer rows.Close()
	out := map[string]stamp{}
	for rows.Next() {
		var p string
		var s stamp
		var ino int64
		if err := rows.Scan(&p, &s.size, &s.mtime, &ino, &s.ctime, &s.checked); err != nil {
			return nil, fmt.Errorf("read index %s: %w", ix.Path, err)
		}
		s.ino = uint64(ino)
		out[p] = s
	}
	return out, rows.Err()
}

// saveBinaries replaces the list of files skipped as binary.
func (ix *Index) saveBinaries(ctx context.Context, bins map[string]stamp) error {
	return ix.write(ctx, "write", func(w *writer) {
		w.exec(`DELETE FROM binaries`)
		rows := make([][]any, 0, len(bins))
		for p, s := range bins {
			rows = append(rows, []any{p, s.size, s.mtime, int64(s.ino), s.ctime, s.checked})
		}
		w.insertMany(`INSERT INTO binaries(path, size, mtime, ino, ctime, checked) VALUES `, 6, rows)
	})
}

// snapshot writes the catalog snapshot for the current version.
func (ix *Index) snapshot(ctx context.Context, base *snapshotBase) (entries []*Entry, version string, err error) {
	err = ix.write(ctx, "write", func(w *writer) {
		if w.err == nil {
			entries, version, w.err = writeSnapshot(ctx, w.tx, base)
		}
	})
	return entries, version, err
}

// writeBatch writes one batch of changes and deletions in a transaction,
// and flushes the delta into a segment when it has grown past a segment's
// size, or, at the final batch of an update, past flushAt, or at all when
// the update flushed a segment before. pending holds the docs of the
// delta in memory, by id: the batch's are added, and it is emptied when
// the delta is flushed. Writes go by path, so two processes updating at
// once only repeat each other's work.
func (ix *Index) writeBatch(ctx context.Context, batch []change, gone []string, pending map[int64]*Doc, final bool, st *Stats) (int, error) {
	if len(batch) == 0 && len(gone) == 0 && !final {
		return 0, nil
	}
	segs := 0
	err := ix.write(ctx, "write", func(w *writer) {
		inBatch := map[int64]*Doc{}
		for _, p := range gone {
			if w.drop(p) {
				st.Deleted++
			}
		}
		var docs []*Doc
		for _, c := range batch {
			if c.doc == nil {
				// The status of the content read, whatever the walk saw.
				f := c.file
				w.exec(`UPDATE files SET size = ?, mtime = ?, ino = ?, ctime_after = ?, checked = ? WHERE path = ? AND hash = ?`,
					f.Size, nanos(f.ModTime), int64(f.Inode), ctimeAfter(nanos(f.ChangeTime), nanos(f.ModTime)), c.checked, f.Path, c.hash)
				if !c.refresh {
					st.Touched++
				}
				continue
			}
			// A file new to the catalog has no row to drop: the lookup
			// by path was 2% of a first index. insertDocs skips a row
			// another process wrote meanwhile, which is dropped and
			// written again below.
			if !c.isNew && w.drop(c.file.Path) {
				st.Changed++
			} else {
				st.Added++
			}
			docs = append(docs, c.doc)
		}
		w.insertDocs(docs)
		var again []*Doc
		for _, d := range docs {
			if d.ID == 0 && w.err == nil {
				again = append(again, d)
				if w.drop(d.Path) {
					st.Added--
					st.Changed++
				}
			}
		}
		w.insertDocs(again)
		for _, d := range again {
			if d.ID == 0 && w.err == nil {
				w.err = fmt.Errorf("write %s: its row was not written", d.Path)
			}
		}
		var defRows [][]any
		for _, d := range docs {
			inBatch[d.ID] = d
			for _, n := range defNames(d) {
				defRows = append(defRows, []any{n, d.ID, defCheck(n, d.ID)})
			}
		}
		w.insertMany(`INSERT INTO defs(name, file, c) VALUES `, 3, defRows)
		var delta, out int
		var deltaBytes int64
		w.queryRow(`SELECT COUNT(*), COALESCE(SUM(size), 0) FROM files WHERE seg = ?`, segBias).scan(&delta, &deltaBytes)
		w.queryRow(`SELECT COUNT(*) FROM cooc_out`).scan(&out)
		// An update that flushed a segment flushes what followed it too:
		// where that flush fell depends on when the batches were committed
		// (commitEvery), and a delta left behind would make the thesaurus,
		// which reads the segments' counts, answer differently for the
		// same files.
		rest := final && st.Segments > 0 && delta > 0
		if final && delta+out >= flushAt || rest || delta >= segmentFiles || deltaBytes >= segmentBytes {
			for id, d := range pending {
				inBatch[id] = d
			}
			w.flushDelta(inBatch)
			segs = 1
		}
		w.touchVersion()
	})
	if err != nil {
		return 0, err
	}
	if segs > 0 {
		clear(pending)
	} else {
		for _, c := range batch {
			if c.doc != nil {
				pending[c.doc.ID] = c.doc
			}
		}
	}
	return segs, nil
}

// touchVersion marks the index changed: readers reload their catalog.
// Under an update, the step from the version before is recorded.
//
// Under an Index that vouches for its content, the vouch follows the
// write (Index.moveVouch). A write rolled back leaves it at a version the
// index never reaches, which vouches for nothing.
func (w *writer) touchVersion() {
	var from string
	if w.steps != nil || w.vouch != nil {
		w.queryRow(`SELECT value FROM meta WHERE key = 'updated'`).scan(&from)
	}
	to := time.Now().UTC().Format(time.RFC3339Nano)
	w.exec(`INSERT INTO meta(key, value) VALUES('updated', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, to)
	if w.steps != nil && w.err == nil {
		*w.steps = append(*w.steps, versionStep{from: from, to: to})
	}
	if w.vouch != nil {
		if w.err != nil {
			from = "\x00" // no version: vouch for nothing
		}
		w.vouch(from, to)
	}
}

// writer runs statements in a transaction, keeping the first error.
type writer struct {
	tx  *sql.Tx
	ctx context.Context
	err error
	// steps: Index.steps.
	steps *[]versionStep
	// vouch: Index.moveVouch.
	vouch func(from, to string)
	// noThesaurus: Options.NoThesaurus.
	noThesaurus bool
}

func (w *writer) exec(q string, args ...any) sql.Result {
	if w.err != nil {
		return nil
	}
	res, err := w.tx.ExecContext(w.ctx, q, args...)
	if err != nil {
		w.err = err
		return nil
	}
	return res
}

type row struct {
	r *sql.Row
	w *writer
}

func (w *writer) queryRow(q string, args ...any) row {
	if w.err != nil {
		return row{w: w}
	}
	return row{r: w.tx.QueryRowContext(w.ctx, q, args...), w: w}
}

// scan reads the row; a missing row reports false, not an error.
func (r row) scan(dest ...any) bool {
	if r.r == nil {
		return false
	}
	if err := r.r.Scan(dest...); err != nil {
		if !errors.Is(err, sql.ErrNoRows) {
			r.w.err = err
		}
		return false
	}
	return true
}

// insertMany inserts rows of cols values each, many rows a statement.
func (w *writer) insertMany(head string, cols int, rows [][]any, tail ...string) {
	w.insertFunc(head, cols, len(rows), func(i int, args []any) []any { return append(args, rows[i]...) }, tail...)
}

// insertFunc inserts n rows of cols values each, many rows a statement:
// row appends the values of row i to args. The statement of a full chunk
// is prepared once and run for each: parsing one of a thousand values
// cost as much as running it.
func (w *writer) insertFunc(head string, cols, n int, row func(i int, args []any) []any, tail ...string) {
	per := max(1, min(500, 30000/cols))
	one := "(" + strings.Repeat("?,", cols-1) + "?)"
	end := strings.Join(tail, "")
	var full *sql.Stmt
	defer func() {
		if full != nil {
			full.Close()
		}
	}()
	args := make([]any, 0, min(per, n)*cols)
	for at := 0; at < n && w.err == nil; {
		k := min(per, n-at)
		args = args[:0]
		for i := at; i < at+k; i++ {
			args = row(i, args)
		}
		if k < per || full == nil && n-at < 2*per {
			w.exec(head+strings.Repeat(one+",", k-1)+one+end, args...)
		} else {
			if full == nil {
				var err error
				if full, err = w.tx.PrepareContext(w.ctx, head+strings.Repeat(one+",", k-1)+one+end); err != nil {
					w.err = err
					return
				}
			}
			if _, err := full.ExecContext(w.ctx, args...); err != nil {
				w.err = err
				return
			}
		}
		at += k
	}
}

// insertDocs inserts new files into the delta and sets their ids. A doc
// whose path has a row already (another process wrote it) is skipped,
// its id left 0.
func (w *writer) insertDocs(docs []*Doc) {
	const cols = 16
	one := "(" + strings.Repeat("?,", cols-1) + "?)"
	for len(docs) > 0 && w.err == nil {
		n := min(200, len(docs))
		args := make([]any, 0, n*cols)
		byPath := map[string]*Doc{}
		for _, d := range docs[:n] {
			byPath[d.Path] = d
			args = append(args, d.Path, d.Lang, int64(d.Kind), d.Size, d.ModTime, int64(d.ino), ctimeAfter(d.ctime, d.ModTime), d.checked, d.hash, segBias,
				d.Len[0], d.Len[1], d.Len[2], d.Len[3], d.Len[4], encodeDoc(d))
		}
		q := `INSERT INTO files(path, lang, kind, size, mtime, ino, ctime_after, checked, hash, seg, l0, l1, l2, l3, l4, doc) VALUES ` +
			strings.Repeat(one+",", n-1) + one + ` ON CONFLICT(path) DO NOTHING RETURNING id, path`
		rows, err := w.tx.QueryContext(w.ctx, q, args...)
		if err != nil {
			w.err = err
			return
		}
		for rows.Next() {
			var id int64
			var p string
			if err := rows.Scan(&id, &p); err != nil {
				w.err = err
				break
			}
			if d := byPath[p]; d != nil {
				d.ID = id
			}
		}
		if err := rows.Close(); err != nil && w.err == nil {
			w.err = err
		}
		docs = docs[n:]
	}
}

// drop removes the file at path, tombstoning its postings if it is in a
// segment. It reports whether there was such a file.
func (w *writer) drop(path string) bool {
	var id, seg int64
	var blob []byte
	if !w.queryRow(`SELECT id, seg, doc FROM files WHERE path = ?`, path).scan(&id, &seg, &blob) {
		return false
	}
	seg -= segBias
	old := &Doc{}
	if err := decodeDoc(blob, old); err != nil {
		w.err = err
		return false
	}
	if seg > 0 {
		w.exec(`INSERT INTO tomb(id, seg, stems) VALUES(?, ?, ?)`, id, seg, encodeStems(old))
		// Its pairs are in the thesaurus: they are taken back at the next
		// flush. A file of the delta never had its pairs counted.
		if len(old.Pairs) > 0 {
			w.exec(`INSERT INTO cooc_out(pairs) VALUES(?)`, encodePairStems(old.pairStems()))
		}
	}
	// Its definers' rows, by the names its doc holds: the table is keyed
	// by name, with no index of files.
	var names []any
	for _, n := range defNames(old) {
		names = append(names, n)
	}
	if len(names) > 0 {
		w.exec(`DELETE FROM defs WHERE file = ? AND name IN (?`+strings.Repeat(",?", len(names)-1)+`)`, append([]any{id}, names...)...)
	}
	w.exec(`DELETE FROM files WHERE id = ?`, id)
	return true
}

// defNames are the names the definers table holds for a doc: those of
// its definitions but sections, each once.
func defNames(d *Doc) []string {
	var names []string
	seen := map[string]bool{}
	for _, def := range d.Defs {
		if def.Kind != "section" && !seen[def.Name] {
			seen[def.Name] = true
			names = append(names, def.Name)
		}
	}
	return names
}

// nextSeg allocates a segment number.
func (w *writer) nextSeg() int64 {
	var v string
	n := int64(1)
	if w.queryRow(`SELECT value FROM meta WHERE key = 'next_seg'`).scan(&v) {
		var err error
		// Never 0, the delta's number, nor one already given out.
		if n, err = strconv.ParseInt(v, 10, 64); err != nil || n < 1 {
			if w.err == nil {
				w.err = fmt.Errorf("next segment number %q: %w", v, errCorrupt)
			}
			return 0
		}
	}
	w.exec(`INSERT INTO meta(key, value) VALUES('next_seg', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
		strconv.FormatInt(n+1, 10))
	return n
}

// flushDelta turns the delta into a new segment. have holds docs already in
// memory, by id: the others are read back.
func (w *writer) flushDelta(have map[int64]*Doc) {
	rows, err := w.tx.QueryContext(w.ctx, `SELECT id FROM files WHERE seg = ? ORDER BY id`, segBias)
	if err != nil {
		w.err = err
		return
	}
	var docs []*Doc
	var need []*Doc
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			w.err = err
			break
		}
		d, ok := have[id]
		if !ok {
			d = &Doc{Entry: Entry{ID: id}}
			need = append(need, d)
		}
		docs = append(docs, d)
	}
	if err := rows.Err(); err != nil && w.err == nil {
		w.err = err
	}
	rows.Close()
	if w.err != nil {
		return
	}
	for _, d := range need {
		var blob []byte
		if !w.queryRow(`SELECT doc FROM files WHERE id = ?`, d.ID).scan(&blob) {
			if w.err == nil {
				w.err = fmt.Errorf("file %d of the delta: %w", d.ID, errCorrupt)
			}
		}
		if w.err != nil {
			return
		}
		if err := decodeDoc(blob, d); err != nil {
			w.err = err
			return
		}
	}
	if w.err != nil {
		return
	}
	// The thesaurus' changes are counted and sorted beside the postings'
	// work: the writer is alone at the end of an update.
	var pairs chan *pairChanges
	if !w.noThesaurus {
		out, err := readPairsOut(w.ctx, w.tx)
		if err != nil {
			w.err = err
			return
		}
		pairs = make(chan *pairChanges, 1)
		go func() { pairs <- countPairs(docs, out) }()
	}
	entries := postingBlocks(docs)
	seg := w.nextSeg()
	w.writeBlocks(seg, entries)
	w.exec(`UPDATE files SET seg = ? WHERE seg = ?`, seg+segBias, segBias)
	if pairs != nil {
		pc := <-pairs
		if w.err == nil {
			w.writePairs(pc)
		}
	}
}

// postingBlocks gathers the postings of docs, in their order, into
// blocks of entries. The stems are parted by block among the cores, each
// part gathered in a goroutine: the writer is alone at the end of an
// update, and this was most of its last flush.
func postingBlocks(docs []*Doc) map[int64][]blockEntry {
	terms := 0
	for _, d := range docs {
		terms += len(d.Terms)
	}
	parts := 1
	if terms >= 1<<16 {
		parts = max(1, min(runtime.GOMAXPROCS(0), 8))
	}
	return postingBlocksIn(docs, parts)
}

// postingBlocksIn is postingBlocks in parts goroutines.
func postingBlocksIn(docs []*Doc, parts int) map[int64][]blockEntry {
	type list struct {
		block   int64
		surface string
		ps      []posting
	}
	gather := func(part int) map[int64][]blockEntry {
		post := map[string]*list{}
		for _, d := range docs {
			for _, t := range d.Terms {
				l := post[t.Stem]
				if l == nil {
					b := blockOf(t.Stem)
					if parts > 1 && int(b)%parts != part {
						continue
					}
					l = &list{block: b}
					post[t.Stem] = l
				}
				if w := t.Word(); l.surface == "" || shorter(w, l.surface) {
					l.surface = w
				}
				l.ps = append(l.ps, posting{id: d.ID, tf: t.TF})
			}
		}
		entries := map[int64][]blockEntry{}
		for stem, l := range post {
			entries[l.block] = append(entries[l.block], blockEntry{stem: stem, surface: l.surface, df: len(l.ps), data: encodePostings(l.ps)})
		}
		return entries
	}
	if parts == 1 {
		return gather(0)
	}
	got := make([]map[int64][]blockEntry, parts)
	var wg sync.WaitGroup
	for p := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[p] = gather(p)
		}()
	}
	wg.Wait()
	entries := make(map[int64][]blockEntry, numBlocks)
	for _, g := range got {
		for b, es := range g {
			entries[b] = es // the parts hold different blocks
		}
	}
	return entries
}

// maybeMerge merges segments when there are too many, or too many of their
// files are tombstoned. It returns how many segments it merged.
func (ix *Index) maybeMerge(ctx context.Context) (int, error) {
	type segInfo struct {
		seg   int64
		files int
		tomb  int
	}
	q := `SELECT s.seg, (SELECT COUNT(*) FROM files f WHERE f.seg = s.seg + ?), (SELECT COUNT(*) FROM tomb t WHERE t.seg = s.seg)
		FROM (SELECT DISTINCT seg FROM postings) s ORDER BY s.seg`
	rows, err := ix.reader().QueryContext(ctx, q, segBias)
	if err != nil {
		return 0, fmt.Errorf("read index %s: %w", ix.Path, err)
	}
	var segs []segInfo
	for rows.Next() {
		var s segInfo
		if err := rows.Scan(&s.seg, &s.files, &s.tomb); err != nil {
			rows.Close()
			return 0, fmt.Errorf("read index %s: %w", ix.Path, err)
		}
		segs = append(segs, s)
	}
	if err := rows.Err(); err != nil {
		rows.Close()
		return 0, fmt.Errorf("read index %s: %w", ix.Path, err)
	}
	rows.Close()
	// Segments heavy with tombstones are merged; past maxSegments, the
	// smallest are merged too, into one.
	var pick []int64
	tombs := 0
	sort.Slice(segs, func(i, j int) bool { return segs[i].files < segs[j].files })
	for i, s := range segs {
		heavy := float64(s.tomb) > tombShare*float64(s.files+s.tomb)
		tooMany := len(segs)-i > maxSegments/2 && len(segs) > maxSegments
		if heavy || tooMany {
			pick = append(pick, s.seg)
			tombs += s.tomb
		}
	}
	// One segment alone is worth rewriting only to drop its tombstones.
	if len(pick) == 0 || len(pick) == 1 && tombs == 0 {
		return 0, nil
	}
	return len(pick), ix.merge(ctx, pick)
}

// writeBlocks writes a segment's postings, block by block.
func (w *writer) writeBlocks(seg int64, entries map[int64][]blockEntry) {
	rows := make([][]any, 0, len(entries))
	for b, es := range entries {
		sort.Slice(es, func(i, j int) bool { return es[i].stem < es[j].stem })
		rows = append(rows, []any{b, seg, encodeBlock(b, seg, es)})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i][0].(int64) < rows[j][0].(int64) })
	w.insertMany(`INSERT INTO postings(block, seg, data) VALUES `, 3, rows)
}

// merge rewrites the postings of segs as one segment, dropping tombstoned
// files.
func (ix *Index) merge(ctx context.Context, segs []int64) error {
	return ix.write(ctx, "merge", func(w *writer) { w.merge(segs) })
}

// merge rewrites segments into one: see Index.merge.
func (w *writer) merge(segs []int64) {
	ctx, tx := w.ctx, w.tx
	args := make([]any, len(segs))
	biased := make([]any, len(segs)) // as the files table holds them
	for i, s := range segs {
		args[i] = s
		biased[i] = s + segBias
	}
	marks := "?" + strings.Repeat(",?", len(segs)-1)
	// The live files of those segments.
	live := map[int64]int64{}
	rows, err := tx.QueryContext(ctx, `SELECT id, seg FROM files WHERE seg IN (`+marks+`)`, biased...)
	if err != nil {
		w.err = err
		return
	}
	for rows.Next() {
		var id, seg int64
		if err := rows.Scan(&id, &seg); err != nil {
			rows.Close()
			w.err = err
			return
		}
		live[id] = seg - segBias
	}
	if err := rows.Err(); err != nil {
		rows.Close()
		w.err = err
		return
	}
	rows.Close()
	seg := w.nextSeg()
	for lo := int64(0); lo < numBlocks && w.err == nil; lo += mergeBlocks {
		w.mergeBlocks(lo, lo+mergeBlocks, seg, live, marks, args)
	}
	if w.err != nil {
		return
	}
	w.exec(`DELETE FROM tomb WHERE seg IN (`+marks+`)`, args...)
	w.exec(`UPDATE files SET seg = ? WHERE seg IN (`+marks+`)`, append([]any{seg + segBias}, biased...)...)
	w.touchVersion()
}

// mergeBlocks: a merge reads, and holds decoded, the postings of this
// many blocks at once, not all of them: a merge of the whole index after
// a cold index of 73,000 files of code (570 MB) held 355 MB of them.
const mergeBlocks = 128

// mergeBlocks merges the postings of blocks lo to hi-1 of segments (their
// placeholders marks, their values args) into segment seg, keeping the
// postings of the live files (their segment by id). The rows of seg it
// writes lie in blocks that no later pass reads.
func (w *writer) mergeBlocks(lo, hi, seg int64, live map[int64]int64, marks string, args []any) {
	ctx, tx := w.ctx, w.tx
	// Collect first: SQLite would see the new rows while reading.
	type merged struct {
		surface string
		ps      []posting
	}
	byBlock := map[int64]map[string]*merged{}
	bounded := append([]any{lo, hi}, args...)
	rows, err := tx.QueryContext(ctx, `SELECT block, seg, data FROM postings WHERE block >= ? AND block < ? AND seg IN (`+marks+`)`, bounded...)
	if err != nil {
		w.err = err
		return
	}
	for rows.Next() && w.err == nil {
		var b, from int64
		var data []byte
		if err := rows.Scan(&b, &from, &data); err != nil {
			w.err = err
			break
		}
		entries, err := decodeBlock(b, from, data)
		if err != nil {
			w.err = err
			break
		}
		m := byBlock[b]
		if m == nil {
			m = map[string]*merged{}
			byBlock[b] = m
		}
		for _, e := range entries {
			t := m[e.stem]
			if t == nil {
				t = &merged{surface: e.surface}
				m[e.stem] = t
			} else if shorter(e.surface, t.surface) {
				t.surface = e.surface
			}
			if err := eachPosting(e.data, func(p posting) {
				if live[p.id] == from {
					t.ps = append(t.ps, p)
				}
			}); err != nil {
				w.err = err
			}
		}
	}
	if err := rows.Err(); err != nil && w.err == nil {
		w.err = err
	}
	rows.Close()
	if w.err != nil {
		return
	}
	w.exec(`DELETE FROM postings WHERE block >= ? AND block < ? AND seg IN (`+marks+`)`, bounded...)
	entries := make(map[int64][]blockEntry, len(byBlock))
	for b, m := range byBlock {
		for stem, t := range m {
			if len(t.ps) == 0 {
				continue
			}
			sort.Slice(t.ps, func(i, j int) bool { return t.ps[i].id < t.ps[j].id })
			entries[b] = append(entries[b], blockEntry{stem: stem, surface: t.surface, df: len(t.ps), data: encodePostings(t.ps)})
		}
	}
	w.writeBlocks(seg, entries)
}

// listingsSuffix names the file beside the database that holds the
// folders' listings (walk.Listings), so that a walk reads again only the
// folders that changed since.
const listingsSuffix = "-folders"

// loadListings returns the folders' listings: those the index keeps in
// memory, else those of its file. A file that is missing or damaged is
// no listings: every folder is read.
func (ix *Index) loadListings() *walk.Listings {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.listings == nil {
		ix.listings = walk.NewListings()
		if b, err := os.ReadFile(ix.Path + listingsSuffix); err == nil {
			_ = ix.listings.UnmarshalBinary(b) // damaged: read every folder
		}
	}
	return ix.listings
}

// dropListings forgets the folders' listings, in memory and in their
// file: a rebuild reads every folder again, whatever a listing says.
func (ix *Index) dropListings() {
	ix.mu.Lock()
	ix.listings = walk.NewListings()
	ix.mu.Unlock()
	os.Remove(ix.Path + listingsSuffix)
}

// saveListings writes the listings a walk changed to their file, whole
// (atomicfile). They only spare reads: one that cannot be written costs
// the next process a read of every folder.
func (ix *Index) saveListings(l *walk.Listings) {
	if !l.Changed() {
		return
	}
	if b, err := l.MarshalBinary(); err == nil {
		_ = atomicfile.Write(ix.Path+listingsSuffix, b, false)
	}
}

// ownFolder is the slash path of the folder of indexes dir relative to the
// repository root, where it lies inside the repository, else "". Both are
// made absolute and their links followed first: a relative --index-dir
// (.hone), or a root named through a link, lies where the walk finds it.
func ownFolder(root, dir string) string {
	resolve := func(p string) string {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		return p
	}
	rel, err := filepath.Rel(resolve(root), resolve(dir))
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return ""
	}
	return filepath.ToSlash(rel)
}
