// Package index keeps what hone knows about a repository's files in a
// SQLite database in the user's cache directory: each file's kind, outline
// and terms by field, and postings per term for BM25F search.
//
// The postings live in segments: a batch of files indexed together writes
// one segment. A file that changes is tombstoned in its segment and indexed
// again into the delta, a handful of files scored from their own term
// vectors until the delta is flushed into a new segment. Small segments are
// merged as they accumulate. Every write is one SQLite transaction, so a
// process killed at any moment leaves an index the next run uses as it is,
// and the next update finishes the work.
package index

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hone-tools/hone/structure"
	"github.com/hone-tools/hone/walk"
	_ "modernc.org/sqlite" // the database/sql driver "sqlite"
)

// schemaVersion changes whenever the tables or blobs change shape, or what
// they hold is made differently (how pairs are counted, how a path's kind is
// told); an index of another version is rebuilt.
//
// What each version changed, from the git history of this file (the
// commit that made each one in brackets):
//
//	1, 2  not recorded: no commit has them; the first one made the index 3.
//	3     the first SQLite index: files with their terms' doc blob, postings
//	      one row a stem and segment, defs, tombstones, binaries (43b4358).
//	4     not recorded: no commit has it; f4b794b went from 3 to 5.
//	5     postings in 2048 hash blocks a segment; the catalog snapshot
//	      table (f4b794b).
//	6     the outlines table: exact outlines by content hash (4bb98dc).
//	7     the thesaurus: each doc's pairs of terms, counted in cooc (67bd7bd).
//	8     pairs counted when the delta is flushed, those of dropped files
//	      waiting in cooc_out; test files add none (2a21513).
//	9     walk's kinds: issue and merge-request templates are documentation
//	      (1998fb4).
//	10    walk's kinds: test folders named in several words, Godeps as
//	      vendored (8b126ca).
//	11    files and binaries keep inode, change time and when their status
//	      was taken; secrets masked before terms are made (33ac5ce).
//	12    a CRC-32C at the end of every blob (e328332).
//	13    the thesaurus pairs a doc comment's words with the parts of the
//	      name it documents (736b823).
//	14    the thesaurus pairs a compound identifier written in prose with
//	      the words around it, and a help text or message in code with the
//	      names written with it (ed45a2b).
//	15    the thesaurus pairs the comment on a configuration file's key
//	      with the key; INI and properties comments start with # ; or !.
//	16    the catalog's snapshot holds each entry as what differs from the
//	      one before it (shared path prefixes, a table of languages, times
//	      as differences), and no content hash; docs and postings write a
//	      term's frequencies as a mask of its fields and their values,
//	      sorted stems and calls as what they add to the one before, and
//	      kinds of definition by number (defKinds); the definers in one
//	      table keyed by name and file, with no index of files; a
//	      checksum on every row of the definers and of the thesaurus's
//	      counts (rows.go).
//	17    the thesaurus's counts one sealed blob a term, its key first
//	      and its pairs after, sorted (cooc).
//	18    pages of 16 KiB (pageSize), not SQLite's 4 KiB.
//	19    a Python definition ends before the first statement at its
//	      indentation or less, and a line inside a string or brackets
//	      defines nothing (structure.pythonStatements); the catalog's
//	      snapshot in the order of its paths (snapshotWalk).
//	20    a term's counts in the thesaurus in parts, rows keyed by term
//	      and part: its most frequent pairs first, the rest in parts
//	      that lie in their pages; each pair's term as what it adds to
//	      the one before (encodePairs); incremental vacuum, so that an
//	      update gives back the pages it freed (Index.reclaim).
//	21    postings in a table with row ids, its key (block, segment) in
//	      an index: a row of a WITHOUT ROWID table larger than a quarter
//	      of a page spills onto overflow pages, mostly left empty, and
//	      a segment's rows went between the others', splitting pages; a
//	      third of the postings' pages was free space. A block's checksum
//	      covers its block and segment (blockKey), so that a row found
//	      through a damaged index entry is damage, not a missing term.
//	22    the line patterns' C and C++ definitions: a function whose
//	      return type stands on the line above its name (BSD and GNU
//	      style), one indented in a namespace or class, each with a
//	      body; a function ends at its closing brace
//	      (structure.cFunctionAt, braceEnd); C++ operators, a member
//	      of a template (StringMaker<T>::convert), a constructor or
//	      destructor (cConstructorAt, isStructor); a Java method or
//	      constructor with no modifier, or an annotation after its
//	      modifiers (structure.javaMethodAt).
//	23    the line patterns' JavaScript and TypeScript definitions: a
//	      function set on a member (proto.week = function), a property
//	      (html: function, get: (x) => {) or a local name (const done
//	      = () => {); a method of an object literal, and one whose name
//	      holds $ or # or whose brace a comment follows; a class given
//	      to a name (module.exports = class App); a call that takes a
//	      callback or an object is no method (structure.jsMethodLike).
//	      A file under a dist/ folder is generated (walk.Classify).
//	24    Swift, Dart and Kotlin outlined by patterns of their own, not
//	      Java's: Swift's func, init, subscript, protocol, extension
//	      (whose methods it contains) and typealias; Dart's functions
//	      and methods by their return type, getters and setters,
//	      constructors, mixins, extensions and typedefs; Kotlin's
//	      functions after expect, actual and the like, extension
//	      functions, enum classes, typealiases (structure.swiftRules,
//	      dartRules, kotlinRules). C#'s constructors and methods with
//	      no modifier (javaMethodAt, csharpDeclLike) and generic
//	      methods (Tracked<T>(...)). Scala's defs with no parameters,
//	      type parameters or a qualified private (scalaRules); Ruby's
//	      operator methods, def obj.name and private def. Lua, Elixir,
//	      Perl, R and Julia, which had no patterns, have theirs.
//	25    the banner of a tool that writes code, in a file's first KiB,
//	      marks it generated: a Bison parser, a flex scanner, SWIG's,
//	      Thrift's and protoc's output (walk.Classify).
//	26    a file's kind says whether its first KiB carries a copyright
//	      notice (walk.Notice), for index.Foreign.
//	27    a file whose opening comment says it was generated and not to
//	      edit it is generated (walk.headerSaysGenerated): an amalgamated
//	      header, a parser a build step writes.
//	28    a test told by the case of its names (walk.testByCase): a JVM,
//	      .NET or Swift class named for its test runner (FooTest.java,
//	      FooTests.swift, FooIT.java), a Gradle source set's folder
//	      (src/jvmTest/); and testsuite/ folders.
//	29    deps/ and dependencies/ at the root are vendored (linguist's
//	      rule: h2o's deps/picotls).
//	30    a file's segment is stored biased (segBias), the delta's 0
//	      included, so that a flush or merge rewrites its row in place.
//	31    code by other names is code: CUDA, .inl, .ipp, .tcc and the
//	      like as C++, Cython as Python (structure.Language); Groovy and
//	      Gradle, Zig, jq and CMake outlined by patterns of their own.
//	32    a file's content hash is SHA-256's first 16 bytes (hashSize).
//	33    the line patterns' C and C++ types: after a template's
//	      parameters on their line, an export macro or attribute, with
//	      final, a base list or an enum's type, indented; C++ aliases
//	      (using X = ...) (structure.cRules).
//	34    a JavaScript or TypeScript method whose body is whole on its
//	      line (get size() { return this.n; }) (structure.jsRules).
//	35    a type whose body is whole on its line (record Point(int x) {},
//	      struct tag {};) contains none of the definitions after it
//	      (structure.bodyOnLine).
//	36    Java's annotation types (@interface), Rust's declarative macros
//	      (macro_rules!, kind "macro", numbered in defKinds) and unions.
//	37    type tests (foo.test-d.ts) and googletest's foo_unittest.cc are
//	      tests (walk.Classify).
//	38    a Rust use tree's imports are each path it names, not the path
//	      before its braces (structure.RustUsePaths).
//	39    C's and C++'s angled includes (#include <a/b.h>) are imports.
//	40    a Rust path inside a module written in its file (mod tests {
//	      use super::*; }) climbs out of it first; the line patterns read
//	      a use tree over several lines.
//	41    in Ruby, Elixir, Lua and Julia read by line patterns, a
//	      definition ends at its own "end", not its module's.
//	42    Go's line patterns name a const or var group's entries alone,
//	      not a function body's assignments (key = f(key)).
//	43    a term's frequencies of one in each field it is in are a bit of
//	      their mask (tfOnes); a doc's calls leave out the names it
//	      defines (Doc.Calls); the files table holds a file's change
//	      time as nanoseconds after its modification time (ctime_after),
//	      NULL where it has none.
//	44    a term's surface is written as what it adds to its stem, a
//	      definition's container as the one before's or a name defined
//	      before where it is one (enc.container), its line as what it
//	      adds to the line before's.
//	45    a container named by a definition before is written as how many
//	      definitions lie between them, not the definition's number; a
//	      file with no change time has a NULL ctime_after.
//	46    import, include and export are kept in a file's name and its
//	      definitions' names (tokenize.IsNameWord), stop words elsewhere.
//	47    a file's name and folders keep their stop words of two
//	      letters (Italian's it.js, keepStop), which lengthen no field.
//	48    a configuration file's password is masked before it is
//	      tokenized however plain it looks (password = Hunter22 in an
//	      .ini, .properties, .cnf or .conf file): an index of 47 may
//	      hold it. The line patterns end a definition nested in
//	      another at its own closing brace, not its parent's
//	      (structure.nestedEnd): Swift's and Dart's outlines change.
//	49    the line patterns end a definition of a brace language at
//	      the margin at its own closing brace or line (a Rust struct
//	      no longer runs over the impl after it), and before the
//	      comments, annotations and attributes that lead to the next
//	      (structure.leadingEnd); read no definition in a string over
//	      lines (Go source in a test's backticks); push no container
//	      for a declaration with no body (type Id = string;); find
//	      TypeScript methods whose parameters run over lines or take
//	      a function (fn: (x: T) => void), and
//	      class fields that hold a function, and C++ functions at the
//	      margin qualified by a template's class or whole on a line;
//	      take no C declaration over lines for a function (one with
//	      an attribute before its ; neither); read PHP's HTML between
//	      ?> and <?php in a method as none of its code; and a
//	      regress/ folder holds tests.
//	50    the line patterns read a declaration after its annotations
//	      or attributes on its line (Java's, Dart's and TypeScript's
//	      @Name(...), C#'s [Name(...)]) and a C# tuple return type,
//	      and end a C++ namespace at its brace, as a module.
//	51    the line patterns read an inline namespace as one, end a
//	      namespace that no brace closes at its own line, read C#
//	      tuples that may be null or in arrays, and a Java annotation
//	      type after annotations.
//	52    the line patterns name a nested namespace whole (namespace
//	      a::b {), and a class defined out of its own (class
//	      Outer::Inner {).
//	53    the line patterns read a function kept in a name at the
//	      margin (export const f = () => {) as a function, not a
//	      variable.
//	54    the line patterns read a function whose type holds an arrow
//	      (f: () => void = () => {) or whose parameters go over lines
//	      (export const Button = ({ … }: Props) => {), C++'s qualified
//	      names with template arguments as none (struct
//	      std::hash<Foo> {), and constructors of a class named whole
//	      (class Outer::Inner { Inner() {).
//	55    the line patterns name namespace a::inline b as a::b
//	      whatever the spaces or tabs between its words.
//	56    the line patterns read a name given a value in parentheses
//	      over lines as a function only where the line that closes
//	      them gives their arrow (not const ids = (…).filter((u) =>).
//	57    the line patterns read a C typedef of a struct, union or enum
//	      with a body (typedef struct tag { … } name;): its tag and
//	      its names, not a field's.
//	58    the line patterns read C and C++ types and namespaces indented
//	      in a namespace or a class (not an alias indented: using
//	      value_type = T;), and a type whose body is whole on its line
//	      (enum class Mode { Run, List };).
//	59    the line patterns read a C typedef's names on the line below
//	      its closing brace (} then queue_t;).
//	60    a C or C++ type ends at the brace that closes its body (not at
//	      a label with a comment), a typedef whole on its line at its
//	      line; a typedef's comments, nested attributes and macro words
//	      are read past (} __attribute__((aligned(16))) PACKED name;), a
//	      tag in capitals is a tag, a macro's continued lines define
//	      nothing; an indented type needs its brace, an indented inline
//	      namespace is one.
//	61    the line patterns give a C or C++ enum the kind enum, as a
//	      typedef's enum tag has and tree-sitter gives, not type.
//	62    the tokenizer keeps a version's "v" and number with the
//	      acronym before it: IPv6 is the term ipv6, as lower-case code
//	      writes it, not pv6.
//	63    a term's surface in the postings is its shortest word over all
//	      files, the stem itself where some file writes it so (clear,
//	      not clears): a file whose word is its stem had counted for
//	      none. A block writes such a surface as nothing. The line
//	      patterns read a label with a comment after it (walk: // loop)
//	      inside its function, which had ended there.
//	64    a .h file's language is read from its text: C++'s where its
//	      code has a namespace, a template, a class, an access label,
//	      a using declaration, std:: or a standard header with no .h
//	      (structure.LanguageOf), and it is outlined with C++'s grammar.
//	65    comments, strings and a macro's continued lines are left out
//	      of that reading, and a scope (a::b), a C++ cast, an included
//	      .hpp header also say C++; tree-sitter's C++ outline names the
//	      functions and methods that return a pointer, a pointer to a
//	      pointer or a reference. A URL's password with no user name
//	      before it (redis://:pw@host) is masked.
//	66    a connection string's password (?user=a&password=x, libpq's
//	      user=a password=x, ADO.NET's Password=x;, MySQL's
//	      a:x@tcp(...)) and a bearer token written out are masked.
//	67    a .h file's code for C++ readers alone (#ifdef __cplusplus)
//	      does not make it C++'s, and a .hpp header it includes by
//	      quotes ("detail/impl.hpp") does.
//	68    a .h file that writes a word only C++ keeps (nullptr,
//	      constexpr, noexcept, virtual) or a member = default; or
//	      = delete; is C++'s.
//	69    an AWS key id joined to a word by "_" and an OpenAI project's
//	      key of any length are masked.
//	70    a .h file's virtual (a C field's name) or typename no longer
//	      makes it C++'s, a virtual method does; an AWS key id of low
//	      entropy (AKIAXXXX..., a DNA primer) and an OpenAI-like name in
//	      kebab case are not masked.
//	71    a name in camel case assigned to a secret's name in code
//	      (reset_password_form = AccountPasswordResetForm) is not
//	      masked.
//	72    a Go method whose receiver has no name (func (errT) Error())
//	      is its type's, not a type named by the name's last letter.
//	73    a pointer's value or an address assigned to a secret's name in
//	      code (cred = *authConfig) is not masked.
//	74    those of 71 and 73 only where the name and the value share a
//	      word that names no secret (smtp_pass = BlueSkyMorning is
//	      masked again).
const schemaVersion = "74"

// hashSize is the length of a file's content hash, SHA-256 cut short: it
// tells a file's content from its last (a chance of 2^-128 to take one
// for another) and keys the outlines' cache, and is no signature. Half of
// SHA-256 saves 16 bytes a file: 1.6 MB of the index of a repository of
// 100,000 small files.
const hashSize = 16

// segBias is added to a file's segment in the files table. SQLite writes
// an integer in as few bytes as it needs, and 0, the delta's, in none: a
// flush that set each row's segment grew every row by a byte, and small
// rows, written packed, split their pages: in the index of a repository
// of 100,000 small files, 12% of the files table was free space (3.7 of
// 30.3 MB; the index 56.7 MB, now 53.4). Biased, every segment up to
// 32,639 takes the same two bytes, and a row set to its segment keeps its
// size. (a large repository's rows, a few KiB each, leave a page's last part free
// however written: 15% of its files table.)
const segBias = 128

// pageSize is the database's page size, set when its file is made: a
// cold index writes a quarter of the pages, and a doc seldom spills onto
// pages of its own. The cold index of a 5,000-file repository took x0.90 the time, a generated
// repository of 100,000 small files x0.54; retrieves took the same. Pages
// of 64 KiB were faster still (x0.86), but a block of 4 KiB overwritten
// in the middle of one, its header spared, could leave a posting's row
// unfound and the answer changed with no error (2 of 100 of TestDamage's
// damages, with more seeds); pages of 16 KiB met every one of 250, and 4
// KiB of 100. A variable for tests.
var pageSize = 16384

// SchemaVersion is the version of the index's format on disk, for
// `hone version`; its changelog is beside schemaVersion.
const SchemaVersion = schemaVersion

const schema = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS files(
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	path TEXT NOT NULL UNIQUE,
	lang TEXT NOT NULL,
	kind INTEGER NOT NULL,
	size INTEGER NOT NULL,
	mtime INTEGER NOT NULL,
	ino INTEGER NOT NULL,
	-- the change time as nanoseconds after mtime: most often 0, which
	-- takes no bytes; NULL where the system gives none (ctimeAfter)
	ctime_after INTEGER,
	checked INTEGER NOT NULL,
	hash BLOB NOT NULL,
	seg INTEGER NOT NULL,
	l0 INTEGER NOT NULL, l1 INTEGER NOT NULL, l2 INTEGER NOT NULL, l3 INTEGER NOT NULL, l4 INTEGER NOT NULL,
	doc BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS files_seg ON files(seg);
CREATE TABLE IF NOT EXISTS postings(
	id INTEGER PRIMARY KEY,
	block INTEGER NOT NULL,
	seg INTEGER NOT NULL,
	data BLOB NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS postings_block ON postings(block, seg);
CREATE INDEX IF NOT EXISTS postings_seg ON postings(seg);
CREATE TABLE IF NOT EXISTS defs(name TEXT NOT NULL, file INTEGER NOT NULL, c INTEGER NOT NULL, PRIMARY KEY(name, file)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tomb(id INTEGER PRIMARY KEY, seg INTEGER NOT NULL, stems BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS snapshot(id INTEGER PRIMARY KEY CHECK (id = 1), version TEXT NOT NULL, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS outlines(hash BLOB PRIMARY KEY, data BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS cooc(a TEXT NOT NULL, part INTEGER NOT NULL, pairs BLOB NOT NULL, PRIMARY KEY(a, part)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS cooc_out(id INTEGER PRIMARY KEY AUTOINCREMENT, pairs BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS binaries(path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime INTEGER NOT NULL,
	ino INTEGER NOT NULL, ctime INTEGER NOT NULL, checked INTEGER NOT NULL) WITHOUT ROWID;
`

// Options controls Open.
type Options struct {
	// Dir holds the indexes, one folder per repository. Empty means
	// $HONE_INDEX_DIR, else the user's cache directory.
	Dir string
	// MaxFileSize skips larger files; 0 means 1 MiB, negative no limit.
	MaxFileSize int64
	// Notice, if set, receives one-line notices, such as an index rebuilt
	// because it was corrupt or of an older format.
	Notice func(string)
	// NoThesaurus leaves the thesaurus of terms that stand together
	// unbuilt: for an index of a few hundred files fetched for one task,
	// whose pairs would say little and cost most of the writing.
	NoThesaurus bool
}

// Index is the index of one repository; several processes may share one
// index. Its read methods, and retrieve.RetrieveIndex, are safe for
// concurrent use with each other. Update, Rebuild, Snapshot, EndRead and
// Close change what the reads read (the read transaction they pin), and
// must not run beside them: a program that updates an index it answers
// from holds a sync.RWMutex, its write side around those (hone's server
// does so, in internal/warm).
type Index struct {
	Root string
	// Path is the database file.
	Path string

	opts Options
	db   *sql.DB
	rd   *sql.Conn // the read transaction, if one is open
	wtx  *sql.Tx   // the rebuild's transaction, while one runs
	// steps, while an update runs, records the versions its writes
	// moved the index from and to (see writer.touchVersion).
	steps *[]versionStep

	mu sync.Mutex
	// vouched: what is known of the database without reading it (see
	// CheckChanged); stamped: the version the stamp beside it was found
	// to hold, or was written at, by this process.
	vouched, stamped vouch
	cat              map[string]*Entry
	// pending is the catalog as a snapshot not decoded yet: an update
	// that found no file changed compared the files with the snapshot as
	// its walk met them, and left the entries to be made when first
	// used, if ever; pendingFiles counts them. cat is nil meanwhile:
	// callers read it through catalog.
	pending      []byte
	pendingFiles int
	byID         *entriesByID // made on demand by entryByID
	total        [NumFields]int64
	// source is the catalog's files' bytes, and inDelta how many of them
	// are in no segment: counted as the catalog is read, in the order it
	// was decoded, since a pass over the catalog's map at 100,000 files
	// costs a cache miss an entry.
	source  int64
	inDelta int
	docs    map[int64]*Doc
	terms   map[string]*termStat
	holders int // the holders decoded in terms (see maxHolders)
	// pairs caches the thesaurus's most frequent pairs, by stem, counted
	// as the catalog stands (see RelatedAll).
	pairs map[string][]Neighbor
	// blocks caches the postings blocks read, by block number.
	blocks map[int64][]segBlock
	delta  []*Doc
	defs   map[string][]*Entry // definers by name
	dirs   map[string][]*Entry // entries by folder ("a/b/"), made on demand
	// licensed marks the folders holding a licence file or a package
	// manifest, made on demand (see Foreign).
	licensed map[string]int8
	tomb     map[int64][]string // tombstoned ids and the stems they held
	// dfShift counts, by stem, the delta's files less the tombstoned ones
	// that hold it, with the delta's shortest word for it, made on demand
	// (see shiftOf).
	dfShift map[string]shift
	ready   bool // caches loaded
	// readErr is the first error the read methods met.
	readErr error
	// loaded is the version of the index the catalog was read at.
	loaded string
	// snapshotOK: the catalog was read from a snapshot of its version,
	// which the end of every update writes.
	snapshotOK bool
	// readOnly, if set, says why the index was opened read-only: a full
	// disk left no room to open it otherwise.
	readOnly error
	// hashes caches the content hashes read, by id: the catalog has none.
	hashes map[int64][]byte
	// outlines caches exact outlines by content hash.
	outlines map[string]*structure.Outline
	// existing: the first open opens only an index that is there,
	// creating nothing.
	existing bool
	// lazy: open leaves the catalog unread, for the update that follows.
	lazy bool
	// rollback: the file is new, in rollback-journal mode and written
	// without syncs, until journalWAL.
	rollback bool
	// walked are the folders the last update's walk read; trees, those of
	// them that are nested work trees' tops.
	walked, trees []string
	// listings are the folders' entries as the walks found them, kept in
	// the file beside the database named by listingsSuffix; nil until an
	// update reads them.
	listings *walk.Listings
}

// dsnOf is the database URI of the index at path: with synchronous
// commits (NORMAL, which in WAL mode syncs at checkpoints) and its pages
// read through a mapping of the file; or, for a new file's first build,
// neither (see open).
func dsnOf(path string, synced bool) string {
	sync, mapped := "NORMAL", mmapBytes
	if !synced {
		sync, mapped = "OFF", 0
	}
	return "file:" + uriPath(path) + "?_pragma=busy_timeout(60000)&_pragma=synchronous(" + sync + ")&_pragma=cell_size_check(1)&_pragma=mmap_size(" + strconv.Itoa(mapped) + ")&_txlock=immediate" + testPragmas
}

// mmapBytes is how much of the index file SQLite reads through a mapping
// (mmap_size): all of it, up to 1 GiB.
const mmapBytes = 1 << 30

// uriPath is path as part of a URI: what would end or alter it escaped.
func uriPath(path string) string {
	return strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(path)
}

// isNewFile reports whether the database at path has no page written
// yet: no file, or an empty one with nothing in a WAL.
func isNewFile(path string) bool {
	fi, err := os.Stat(path)
	return errors.Is(err, os.ErrNotExist) || err == nil && fi.Size() == 0 && walEmpty(path)
}

// journalExists reports whether the database at path has a rollback
// journal: a first build's transaction is under way, or was killed.
func journalExists(path string) bool {
	_, err := os.Stat(path + "-journal")
	return err == nil
}

// journalWAL ends a new file's first build: its file, which walMode left
// in rollback-journal mode and which was written without waiting for the
// disk, is synced, and put in WAL mode, which it keeps, with synchronous
// commits. It runs before the read that Snapshot holds, which in
// rollback-journal mode would keep other processes from writing, and so
// once the update that built the file has ended.
//
// A first build in WAL mode wrote each page to the WAL and again to the
// file, read it back from the WAL between, and synced both at every
// checkpoint: 7% of django's first index (docs/index.md, "The first build's
// journal"). In rollback-journal mode its transactions are as atomic: a
// killed first build keeps what it committed, SQLite rolling back the
// rest when the file is next opened. Without syncs, what it committed
// may be lost or damaged if the machine itself stops before journalWAL;
// a damaged index is built again (Update), and the index is a copy of
// the repository's files, never their only one (the folder that holds the
// file is not synced either, nor the WAL of a file another process put in
// WAL mode meanwhile). A second process that opens the file meanwhile
// waits for the build's commit, and puts the file in WAL mode itself, the
// build going on in it. A rebuild, which is one transaction, is made in
// WAL mode: a second process would wait for all of it.
func (ix *Index) journalWAL(ctx context.Context) error {
	if !ix.rollback {
		return nil
	}
	f, err := os.OpenFile(ix.Path, os.O_RDWR, 0)
	if err == nil {
		err = f.Sync()
		f.Close()
	}
	if err != nil {
		return fmt.Errorf("write index %s: %w", ix.Path, err)
	}
	db, err := sql.Open("sqlite", dsnOf(ix.Path, true))
	if err != nil {
		return fmt.Errorf("open index %s: %w", ix.Path, err)
	}
	db.SetMaxOpenConns(4)
	if err := toWAL(ctx, db.ExecContext); err != nil {
		db.Close()
		return fmt.Errorf("write index %s: %w", ix.Path, err)
	}
	ix.db.Close()
	ix.db = db
	ix.rollback = false // not before: a switch that failed is tried again
	return nil
}

// version is the time of the last write to the index, which changes with
// every write by any process.
func (ix *Index) version(ctx context.Context) (string, error) {
	var v string
	err := ix.reader().QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'updated'`).Scan(&v)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("read index %s: %w", ix.Path, err)
	}
	return v, nil
}

// DefaultDir is where indexes live unless Options.Dir says otherwise.
func DefaultDir() (string, error) {
	if d := os.Getenv("HONE_INDEX_DIR"); d != "" {
		return d, nil
	}
	c, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find the cache directory (set HONE_INDEX_DIR to choose one): %w", err)
	}
	return filepath.Join(c, "hone"), nil
}

// dbPath names the database of a repository: one folder per absolute root.
func dbPath(dir, root string) string {
	sum := sha256.Sum256([]byte(root))
	name := filepath.Base(root)
	if name == "" || name == "/" || name == "." {
		name = "root"
	}
	return filepath.Join(dir, name+"-"+hex.EncodeToString(sum[:8]), "index.db")
}

// ErrNoIndex is OpenExisting's error for a repository with no index yet,
// or with one of another format, which the next update rebuilds.
var ErrNoIndex = errors.New("no index yet")

// Open opens the index of the repository at root, creating it if needed. It
// does not bring it up to date: call Update.
func Open(ctx context.Context, root string, opts Options) (*Index, error) {
	return openIndex(ctx, root, opts, true, false)
}

// OpenUpdate opens the index of the repository at root, as Open does,
// and updates it, as Update does, in less time: the index's catalog is
// read while the update's walk takes the files' statuses. When the update
// fails with ErrFull, the index is returned too, answering as it was.
func OpenUpdate(ctx context.Context, root string, opts Options, progress func(Progress)) (*Index, Stats, error) {
	ix, err := openIndex(ctx, root, opts, true, true)
	if err != nil {
		return nil, Stats{}, err
	}
	st, err := ix.Update(ctx, progress)
	if err != nil && !(errors.Is(err, ErrFull) && ix.hasCatalog()) {
		ix.Close()
		return nil, st, err
	}
	return ix, st, err
}

// hasCatalog reports whether the catalog is read.
func (ix *Index) hasCatalog() bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.cat != nil || ix.pending != nil
}

// OpenExisting opens the index of the repository at root as Open does, but
// only if there is one: where there is none, or one of another format, it
// returns an error wrapping ErrNoIndex, having created or removed nothing.
// A damaged index is built again, as Open has it.
func OpenExisting(ctx context.Context, root string, opts Options) (*Index, error) {
	return openIndex(ctx, root, opts, false, false)
}

// PathOf is where the index of the repository at root lives, or will:
// one index a folder, by its path once symbolic links are followed, so
// that a repository reached through a link (a checkout under ~/src linked
// from elsewhere) is not indexed twice.
// An empty root is ErrNoRepository, as Open has it.
func PathOf(root string, opts Options) (string, error) {
	if root == "" {
		return "", ErrNoRepository
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("find the index of %s: %w", root, err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	dir := opts.Dir
	if dir == "" {
		if dir, err = DefaultDir(); err != nil {
			return "", err
		}
	}
	return dbPath(dir, abs), nil
}

// IsOpen reports whether ix is an index that Open, OpenUpdate or
// OpenExisting opened and that is not closed: an Index made any other
// way, or closed, answers nothing.
func (ix *Index) IsOpen() bool { return ix != nil && ix.db != nil }

// ErrNoRepository is the error of an index opened with no repository's
// path.
var ErrNoRepository = errors.New("no repository: the repository's path is empty; give its folder (\".\" for the working directory)")

// With lazy, the catalog is left for the update that follows to read.
func openIndex(ctx context.Context, root string, opts Options, create, lazy bool) (*Index, error) {
	if root == "" {
		// Not the working directory: an empty path is a caller's value
		// left unset, and the folder it would index may be anything.
		return nil, ErrNoRepository
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("open index of %s: %w", root, err)
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("open index of %s: the repository does not exist: give the path of a repository's folder: %w", root, err)
	case err != nil:
		return nil, fmt.Errorf("open index of %s: %w", root, err)
	case !fi.IsDir():
		return nil, fmt.Errorf("open index of %s: %w: give the path of a repository's folder, not a file in it", root, walk.ErrNotDir)
	}
	path, err := PathOf(abs, opts)
	if err != nil {
		return nil, err
	}
	ix := &Index{Root: abs, Path: path, opts: opts, existing: !create, lazy: lazy}
	defer func() { ix.lazy = false }() // an open after this one reads it
	if err := ix.open(ctx); err != nil {
		if !isCorrupt(err) {
			return nil, err
		}
		ix.existing = false
		ix.notice(fmt.Sprintf("the index at %s is damaged (%s); building a new one", ix.Path, ix.why(err)))
		if err := ix.remove(); err != nil {
			return nil, err
		}
		if err := ix.open(ctx); err != nil {
			return nil, err
		}
	}
	// An index that is there may be rebuilt, as a damaged one is.
	ix.existing = false
	return ix, nil
}

// maxFileSize is the size limit, negative for none.
func (ix *Index) maxFileSize() int64 {
	if ix.opts.MaxFileSize == 0 {
		return walk.DefaultMaxFileSize
	}
	return ix.opts.MaxFileSize
}

func (ix *Index) notice(s string) {
	if ix.opts.Notice != nil {
		ix.opts.Notice(s)
	}
}

// open opens the database, checks its version and loads the catalog.
func (ix *Index) open(ctx context.Context) error {
	if ix.existing {
		// A database file never written to is no index either.
		if isNewFile(ix.Path) {
			return fmt.Errorf("%w of %s", ErrNoIndex, ix.Root)
		}
	}
	if err := privateDir(filepath.Dir(ix.Path)); err != nil {
		return err
	}
	if err := PrivateDB(ix.Path); err != nil {
		return err
	}
	// SQLite checks each page's cells as it reads the page
	// (cell_size_check): a cell pointer damage changed would otherwise
	// lose a row of the postings, read as a block with fewer postings and
	// no error (TestDamagedCellPointers). It cost nothing measurable.
	//
	// SQLite reads the file's pages through a mapping of it, up to 1 GiB
	// (mmap_size), rather than copy each into its page cache: a warm
	// retrieve on a 5,000-file repository made 456 reads of 16 KiB pages, 15 with the
	// mapping, and took ×0.94 and ×0.96 the time (21 interleaved runs,
	// two tasks); hone index with nothing changed the same. Writes go
	// through the file as before. A file cut short under a running
	// process by another program than SQLite would fault its reads: the
	// index is SQLite's alone, as its lock says.
	//
	// A new file's first build writes without waiting for the disk
	// (synchronous OFF), until journalWAL: see there. It reads its pages
	// into SQLite's page cache instead of through the mapping: the build
	// meets every page of the file as it merges its segments, and each
	// page mapped stayed in the process's memory until it ended (the file
	// is mapped again with the WAL mode, for the reads that follow). The
	// cold index of 51,243 files of code (398 MB) peaked at 552 MB instead
	// of 714 MB, a 5,349-file repository's at 312 MB instead of 328 MB, in
	// the same time.
	newFile := isNewFile(ix.Path)
	db, err := sql.Open("sqlite", dsnOf(ix.Path, !newFile))
	if err != nil {
		return fmt.Errorf("open index %s: %w", ix.Path, err)
	}
	db.SetMaxOpenConns(4)
	ix.db = db
	ix.mu.Lock()
	ix.vouched, ix.stamped = vouch{}, vouch{}
	ix.mu.Unlock()
	var fresh bool
	fresh, err = walMode(ctx, db)
	if err == nil && newFile && !fresh {
		// Another process wrote the file's first pages meanwhile.
		db.Close()
		return ix.open(ctx)
	}
	ix.rollback = fresh
	var version string
	if err == nil {
		err = db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'schema'`).Scan(&version)
	}
	if testHookOpen != nil && err == nil {
		err = testHookOpen()
	}
	if isFull(err) && walEmpty(ix.Path) && !journalExists(ix.Path) {
		// The disk is full: a WAL database cannot be opened for lack of
		// room for its shared memory. Its file alone is the whole index,
		// and is read as it is, as the immutable file it is for now;
		// unless a rollback journal says that a first build is writing it
		// (journalWAL), or stopped in a transaction.
		db.Close()
		return ix.openReadOnly(ctx, uriPath(ix.Path), err)
	}
	switch {
	case err == nil && version == schemaVersion:
	case ix.existing && err == nil:
		db.Close()
		return fmt.Errorf("%w of %s: the index at %s has format %s, not %s, and is rebuilt on the next update", ErrNoIndex, ix.Root, ix.Path, version, schemaVersion)
	case ix.existing && isMissingTable(err):
		db.Close()
		return fmt.Errorf("%w of %s", ErrNoIndex, ix.Root)
	case err == nil || isMissingTable(err):
		if err == nil {
			ix.notice(fmt.Sprintf("the index at %s has format %s, not %s; rebuilding it", ix.Path, version, schemaVersion))
			db.Close()
			if err := ix.remove(); err != nil {
				return err
			}
			return ix.open(ctx)
		}
		if err := ix.create(ctx); err != nil {
			db.Close()
			return err
		}
		if fresh {
			// Made by this process: its content is what it wrote.
			ix.vouchFor("")
		}
	case isFull(err):
		db.Close()
		return fmt.Errorf("open index %s: %w (%v); free some space there", ix.Path, ErrFull, err)
	default:
		db.Close()
		return fmt.Errorf("open index %s: %w", ix.Path, err)
	}
	if ix.lazy {
		return nil
	}
	if err := ix.loadCatalog(ctx); err != nil {
		db.Close()
		return err
	}
	return nil
}

// walMode puts the database in WAL mode, which its file keeps; or, if it
// is new, sets its pages of pageSize and incremental vacuum, which the
// first table fixes, and leaves it in rollback-journal mode for its first
// update (journalWAL). (A DSN's pragmas run in the order of their names,
// the journal's first.)
//
// It reports whether the file was new: no page written yet.
func walMode(ctx context.Context, db *sql.DB) (bool, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, fmt.Sprintf(`PRAGMA page_size = %d`, pageSize)); err != nil {
		return false, err
	}
	// Only a new file's: on one made, setting it writes to the file, and
	// an open with the disk full finds a WAL it cannot read read-only.
	var pages int64
	if err := conn.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
		return false, err
	}
	if pages == 0 {
		if _, err := conn.ExecContext(ctx, `PRAGMA auto_vacuum = INCREMENTAL`); err != nil {
			return false, err
		}
	}
	if pages == 0 {
		// A new file is built with a rollback journal: see journalWAL.
		return true, nil
	}
	return false, toWAL(ctx, conn.ExecContext)
}

// toWAL puts a database in WAL mode through exec. Another process's first
// build, in rollback mode, holds the file's lock between its commits, and
// another opener's read holds it a while too; SQLite answers a change of
// journal mode then with SQLITE_BUSY at once, busy_timeout or not: it is
// waited for as any lock, until the context ends or busyWait passes.
func toWAL(ctx context.Context, exec func(context.Context, string, ...any) (sql.Result, error)) error {
	start := time.Now()
	for delay := 2 * time.Millisecond; ; delay = min(2*delay, 100*time.Millisecond) {
		_, err := exec(ctx, `PRAGMA journal_mode = WAL`)
		if err == nil || !isBusy(err) || time.Since(start) > busyWait {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
	}
}

// busyWait is how long an open waits for another process's lock, as
// busy_timeout has SQLite wait.
const busyWait = 60 * time.Second

// testHookOpen, if set, stands for the outcome of the first read of an
// open: tests make it a full disk.
var testHookOpen func() error

// openReadOnly opens the database file as immutable: no lock, no WAL, no
// shared memory, nothing written. cause is why it is opened so.
func (ix *Index) openReadOnly(ctx context.Context, uriPath string, cause error) error {
	db, err := sql.Open("sqlite", "file:"+uriPath+"?mode=ro&immutable=1&_pragma=cell_size_check(1)")
	if err != nil {
		return fmt.Errorf("open index %s: %w", ix.Path, err)
	}
	db.SetMaxOpenConns(4)
	ix.db = db
	var version string
	err = db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'schema'`).Scan(&version)
	if err == nil && version != schemaVersion {
		err = fmt.Errorf("format %s, not %s", version, schemaVersion)
	}
	if err == nil {
		err = ix.loadCatalog(ctx)
	}
	if err != nil {
		db.Close()
		ix.db = nil
		return fmt.Errorf("open index %s: %w (%v); free some space there", ix.Path, ErrFull, cause)
	}
	ix.readOnly = cause
	return nil
}

func (ix *Index) create(ctx context.Context) error {
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("create index %s: %w", ix.Path, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("create index %s: %w", ix.Path, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES('schema', ?), ('root', ?)
		ON CONFLICT(key) DO NOTHING`, schemaVersion, ix.Root); err != nil {
		return fmt.Errorf("create index %s: %w", ix.Path, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("create index %s: %w", ix.Path, err)
	}
	return nil
}

// remove deletes the database and its journal files.
func (ix *Index) remove() error {
	ix.endRead()
	if ix.db != nil {
		ix.db.Close()
		ix.db = nil
	}
	ix.mu.Lock()
	ix.listings = nil
	ix.mu.Unlock()
	for _, suffix := range []string{"", "-wal", "-shm", "-journal", stampSuffix, listingsSuffix} {
		if err := os.Remove(ix.Path + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("remove index %s: %w", ix.Path, err)
		}
	}
	// Listings' files a process left half written when it died.
	if tmp, err := filepath.Glob(ix.Path + listingsSuffix + ".*"); err == nil {
		for _, p := range tmp {
			os.Remove(p)
		}
	}
	return nil
}

// Close releases the database.
func (ix *Index) Close() error {
	if ix.db == nil {
		return nil
	}
	ix.endRead()
	// What this process vouches for is stamped once the database is
	// closed, its WAL put into it: the next process need not read it.
	ix.mu.Lock()
	vouched, stamped := ix.vouched, ix.stamped
	ix.vouched, ix.stamped = vouch{}, vouch{}
	ix.mu.Unlock()
	var stamp bool
	if vouched.ok && vouched != stamped && ix.readOnly == nil {
		v, err := ix.latestVersion(context.Background())
		stamp = err == nil && v == vouched.version
	}
	err := ix.db.Close()
	ix.db = nil
	if stamp && err == nil {
		ix.leaveStamp(vouched.version)
	}
	return err
}

// reader is what the read methods query: the read transaction when one is
// open, so that everything a retrieval reads comes from one version of the
// index, whatever other processes write meanwhile. A closed index's reads
// fail, and are recorded for Err like any other.
func (ix *Index) reader() queryer {
	if ix.wtx != nil {
		return ix.wtx
	}
	if ix.rd != nil {
		return ix.rd
	}
	if ix.db == nil {
		return closedDB
	}
	return ix.db
}

// closedDB is what a closed index reads: a database handle closed before
// any use, every query on which fails with "sql: database is closed".
var closedDB = func() *sql.DB {
	// sql.Open only checks that the driver is registered; it is linked in.
	db, err := sql.Open("sqlite", "")
	if err != nil {
		panic(err)
	}
	if err := db.Close(); err != nil {
		panic(err)
	}
	return db
}()

// Snapshot pins the index as it is now for the read methods, until the
// next Update, Snapshot or Close: a read transaction, in which the catalog
// is read again.
func (ix *Index) Snapshot(ctx context.Context) error {
	if ix.db == nil {
		return fmt.Errorf("read index of %s: the index is closed", ix.Root)
	}
	ix.endRead()
	if err := ix.journalWAL(ctx); err != nil {
		return err
	}
	conn, err := ix.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("read index %s: %w", ix.Path, err)
	}
	if _, err := conn.ExecContext(ctx, "BEGIN DEFERRED"); err != nil {
		conn.Close()
		return fmt.Errorf("read index %s: %w", ix.Path, err)
	}
	ix.rd = conn
	// The catalog and the caches built on it stand while no process
	// wrote to the index since they were read.
	v, err := ix.version(ctx)
	if err != nil {
		return err
	}
	ix.mu.Lock()
	current := (ix.cat != nil || ix.pending != nil) && v == ix.loaded
	ix.mu.Unlock()
	if current {
		return nil
	}
	return ix.loadCatalog(ctx)
}

// EndRead ends the read that Update or Snapshot began, so that a process
// that keeps the index open between answers lets others' writes be
// checkpointed meanwhile. The next Snapshot or Update reads again.
func (ix *Index) EndRead() { ix.endRead() }

// endRead ends the read transaction, if any. A connection whose
// transaction could not be ended is closed, never put back in the pool:
// every later read on it would see the old version.
func (ix *Index) endRead() {
	if ix.rd == nil {
		return
	}
	if _, err := ix.rd.ExecContext(context.Background(), "ROLLBACK"); err != nil {
		dropConn(ix.rd)
	}
	ix.rd.Close()
	ix.rd = nil
}

// dropConn makes database/sql close conn when it is released rather than
// put it back in the pool, for a connection left in a state (a transaction
// open, a setting changed) that later reads must not meet.
func dropConn(conn *sql.Conn) {
	conn.Raw(func(any) error { return driver.ErrBadConn }) // returns that error: conn is closed
}

func isMissingTable(err error) bool {
	return err != nil && strings.Contains(err.Error(), "no such table")
}

// isCorrupt reports errors of a damaged database file.
func isCorrupt(err error) bool {
	if err == nil {
		return false
	}
	s := err.Error()
	return errors.Is(err, errCorrupt) || strings.Contains(s, "malformed") || strings.Contains(s, "not a database") ||
		strings.Contains(s, "SQLITE_CORRUPT") || strings.Contains(s, "SQLITE_NOTADB") || strings.Contains(s, "file is encrypted")
}

// loadCatalog reads every file's entry, and drops the caches built on the
// previous catalog.
func (ix *Index) loadCatalog(ctx context.Context) error {
	version, err := ix.version(ctx)
	if err != nil {
		return err
	}
	entries, err := readSnapshot(ctx, ix.reader(), version)
	if err != nil {
		return fmt.Errorf("read index %s: %w", ix.Path, err)
	}
	snapshotOK := entries != nil
	if entries == nil {
		if entries, err = readEntries(ctx, ix.reader()); err != nil {
			return fmt.Errorf("read index %s: %w", ix.Path, err)
		}
	}
	ix.mu.Lock()
	ix.setLoaded(entries, version, snapshotOK)
	ix.mu.Unlock()
	return nil
}

// setLoaded makes the catalog of the entries read at version, and drops
// what was read at the version before. Callers hold ix.mu.
func (ix *Index) setLoaded(entries []*Entry, version string, snapshotOK bool) {
	ix.setCatalog(entries)
	ix.loaded, ix.snapshotOK = version, snapshotOK
	ix.forget()
}

// setCatalog makes the catalog of its entries. Callers hold ix.mu.
func (ix *Index) setCatalog(entries []*Entry) {
	cat := make(map[string]*Entry, len(entries))
	var total [NumFields]int64
	var source int64
	inDelta := 0
	for _, e := range entries {
		cat[e.Path] = e
		for f := range total {
			total[f] += int64(e.Len[f])
		}
		source += e.Size
		if e.seg == 0 {
			inDelta++
		}
	}
	ix.cat, ix.byID, ix.total, ix.source, ix.inDelta = cat, nil, total, source, inDelta
	ix.pending, ix.pendingFiles = nil, 0
}

// setPending leaves the catalog of version as its snapshot b, whose
// figures are sum, to be decoded when first used. Callers hold ix.mu.
func (ix *Index) setPending(version string, b []byte, sum catalogSummary) {
	ix.cat, ix.byID, ix.total, ix.source, ix.inDelta = nil, nil, sum.total, sum.source, sum.inDelta
	ix.pending, ix.pendingFiles = b, sum.files
	ix.loaded, ix.snapshotOK = version, true
	ix.forget()
}

// forget drops what was read of the index at the version before the
// catalog's. Callers hold ix.mu.
func (ix *Index) forget() {
	ix.docs, ix.terms, ix.defs, ix.blocks, ix.dirs = map[int64]*Doc{}, map[string]*termStat{}, map[string][]*Entry{}, map[int64][]segBlock{}, nil
	ix.holders, ix.pairs = 0, nil
	ix.delta, ix.tomb, ix.ready, ix.hashes = nil, nil, false, nil
	ix.dfShift, ix.licensed = nil, nil
}

// catalog is the catalog, its entries made from the snapshot an update
// left pending, if it did. The snapshot was read through when it was
// left: a failure to decode it now is a damaged index, recorded for Err,
// with an empty catalog. Callers hold ix.mu.
func (ix *Index) catalog() map[string]*Entry {
	if ix.pending != nil {
		entries, err := decodeEntries(ix.pending)
		if err != nil {
			ix.fail(err)
		}
		ix.setCatalog(entries)
		if err != nil {
			ix.loaded = "" // read again by the next Snapshot or Update
		}
	}
	return ix.cat
}

// files counts the catalog's entries, without making them. Callers hold
// ix.mu.
func (ix *Index) files() int {
	if ix.pending != nil {
		return ix.pendingFiles
	}
	return len(ix.cat)
}

// entryByID returns the catalog's entry of the file of id, nil if none.
// Callers hold ix.mu. The table by id is made on first use: an update
// needs none.
func (ix *Index) entryByID(id int64) *Entry {
	if ix.byID == nil {
		ix.byID = newEntriesByID(ix.catalog())
	}
	return ix.byID.get(id)
}

// entriesByID finds entries by id: in a slice indexed by id, ids being
// handed out in order, or in a map when too few of them are in use.
type entriesByID struct {
	dense  []*Entry
	sparse map[int64]*Entry
}

func newEntriesByID(cat map[string]*Entry) *entriesByID {
	var low, top int64
	for _, e := range cat {
		low, top = min(low, e.ID), max(top, e.ID)
	}
	t := &entriesByID{}
	if low < 0 || top > 4*int64(len(cat))+4096 {
		t.sparse = make(map[int64]*Entry, len(cat))
		for _, e := range cat {
			t.sparse[e.ID] = e
		}
		return t
	}
	t.dense = make([]*Entry, top+1)
	for _, e := range cat {
		t.dense[e.ID] = e
	}
	return t
}

func (t *entriesByID) get(id int64) *Entry {
	if t.sparse != nil {
		return t.sparse[id]
	}
	if id < 0 || id >= int64(len(t.dense)) {
		return nil
	}
	return t.dense[id]
}

// hashOf returns the content hash of e's file, nil if it has none, as
// the files table has it, read once. A read that fails is recorded for
// Err.
func (ix *Index) hashOf(e *Entry) []byte {
	ix.mu.Lock()
	h, ok := ix.hashes[e.ID]
	ix.mu.Unlock()
	if ok {
		return h
	}
	err := ix.reader().QueryRowContext(context.Background(), `SELECT hash FROM files WHERE id = ?`, e.ID).Scan(&h)
	if err != nil {
		if !errors.Is(err, sql.ErrNoRows) {
			ix.failLocking(fmt.Errorf("read the hash of %s: %w", e.Path, err))
		}
		return nil
	}
	ix.mu.Lock()
	if ix.hashes == nil {
		ix.hashes = map[int64][]byte{}
	}
	ix.hashes[e.ID] = h
	ix.mu.Unlock()
	return h
}

// readHashes reads the content hashes of the files of ids: by id for a
// few, in one pass over the table for many.
func readHashes(ctx context.Context, q queryer, ids []int64) (map[int64][]byte, error) {
	out := make(map[int64][]byte, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	scan := func(query string, args ...any) error {
		rows, err := q.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var h []byte
			if err := rows.Scan(&id, &h); err != nil {
				return err
			}
			out[id] = h
		}
		return rows.Err()
	}
	if len(ids) > 4000 {
		want := make(map[int64]bool, len(ids))
		for _, id := range ids {
			want[id] = true
		}
		if err := scan(`SELECT id, hash FROM files`); err != nil {
			return nil, err
		}
		for id := range out {
			if !want[id] {
				delete(out, id)
			}
		}
		return out, nil
	}
	for len(ids) > 0 {
		k := min(len(ids), 500)
		args := make([]any, k)
		for i, id := range ids[:k] {
			args[i] = id
		}
		if err := scan(`SELECT id, hash FROM files WHERE id IN (?`+strings.Repeat(",?", k-1)+`)`, args...); err != nil {
			return nil, err
		}
		ids = ids[k:]
	}
	return out, nil
}

// queryer is a database, a connection or a transaction.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	PrepareContext(ctx context.Context, query string) (*sql.Stmt, error)
}

// readEntries reads every file's entry from the files table, without its
// hash, as the snapshot has them.
func readEntries(ctx context.Context, q queryer) ([]*Entry, error) {
	return scanEntries(ctx, q, nil, `SELECT `+entryColumns+` FROM files`)
}

// ctimeAfter is the files table's ctime_after of a change time and a
// modification time: NULL where there is no change time (0: the systems
// whose walk reads none), which takes no bytes, as the difference would
// take eight.
func ctimeAfter(ctime, mtime int64) any {
	if ctime == 0 {
		return nil
	}
	return ctime - mtime
}

// entryColumns are the files table's columns an Entry holds, as
// scanEntries reads them.
const entryColumns = `id, path, lang, kind, size, mtime, ino, COALESCE(mtime + ctime_after, 0), checked, seg, l0, l1, l2, l3, l4`

// scanEntries appends to out the entries of the query's rows, of
// entryColumns.
func scanEntries(ctx context.Context, q queryer, out []*Entry, query string, args ...any) ([]*Entry, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		e := &Entry{}
		var kind, ino int64
		if err := rows.Scan(&e.ID, &e.Path, &e.Lang, &kind, &e.Size, &e.ModTime, &ino, &e.ctime, &e.checked, &e.seg,
			&e.Len[0], &e.Len[1], &e.Len[2], &e.Len[3], &e.Len[4]); err != nil {
			return nil, err
		}
		e.seg -= segBias
		e.Kind, e.ino = walk.Kind(kind), uint64(ino)
		out = append(out, e)
	}
	return out, rows.Err()
}

// The snapshot is the catalog in one blob, read in a few milliseconds
// where the files table takes tens. It is good only for the version of the
// index it was written at; an update that wrote files writes a new one.

// readSnapshot reads the catalog's snapshot, nil if it is not of version.
func readSnapshot(ctx context.Context, q queryer, version string) ([]*Entry, error) {
	var entries []*Entry
	err := withSnapshot(ctx, q, version, func(data []byte) (err error) {
		entries, err = decodeEntries(data) // its strings and hashes are copies
		return err
	})
	return entries, err
}

// withSnapshot calls use with the snapshot's blob where the driver holds
// it, valid only during the call, if there is a snapshot of version: at
// 100,000 files, a copy of its megabytes costs a tenth of a no-change
// update.
func withSnapshot(ctx context.Context, q queryer, version string, use func(data []byte) error) error {
	rows, err := q.QueryContext(ctx, `SELECT version, data FROM snapshot WHERE id = 1`)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		return rows.Err()
	}
	var v string
	var data sql.RawBytes
	if err := rows.Scan(&v, &data); err != nil {
		return err
	}
	if v != version {
		return nil
	}
	return use(data)
}

// A snapshotWalk reads a catalog's snapshot along with a walk, both in
// the byte order of the paths: it finds each file's entry with neither
// the catalog's map nor its entries made.
type snapshotWalk struct {
	data []byte // the snapshot, a copy of the database's
	sum  catalogSummary
	c    *entryCursor
	have bool  // c holds an entry not passed yet
	e    Entry // the entry seek found last
	// found counts the entries of the files the walk handed on.
	found int
}

// readSnapshotWalk reads the snapshot of version, nil if there is none of
// it or its entries are not in the order of a walk: one written before
// snapshots were, or by a build that wrote them in the files' order.
func (ix *Index) readSnapshotWalk(ctx context.Context, version string) (*snapshotWalk, error) {
	if version == "" {
		return nil, nil
	}
	var data []byte // a copy: it outlives the read
	var sum catalogSummary
	err := withSnapshot(ctx, ix.reader(), version, func(raw []byte) (err error) {
		sum, err = summarize(raw)
		if err == nil && sum.sorted {
			data = bytes.Clone(raw)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read index %s: %w", ix.Path, err)
	}
	if data == nil {
		return nil, nil
	}
	c, err := newEntryCursor(data)
	if err != nil {
		return nil, fmt.Errorf("read index %s: %w", ix.Path, err)
	}
	s := &snapshotWalk{data: data, sum: sum, c: c}
	s.have = c.next()
	return s, nil
}

// seek returns the entry of path, nil if the snapshot has none. The paths
// asked must come in byte order, each once, as a walk meets them: the
// entries before path are passed over for good. The entry is valid until
// the next call.
func (s *snapshotWalk) seek(path string) *Entry {
	for s.have && string(s.c.path) < path {
		s.have = s.c.next()
	}
	if !s.have || string(s.c.path) != path {
		return nil
	}
	s.e = s.c.e
	s.e.Path = path
	s.have = s.c.next()
	return &s.e
}

// all reports whether the walk kept every entry: found counts those of
// the files it handed on, not those it asked Seen about, since a file
// that turned binary or unreadable is asked about and then dropped.
func (s *snapshotWalk) all() bool { return s.found == s.sum.files }

// len counts the snapshot's entries, 0 for none.
func (s *snapshotWalk) len() int {
	if s == nil {
		return 0
	}
	return s.sum.files
}

// writeSnapshot stores the catalog as of the transaction's version, and
// returns it and the version.
//
// The files table is read whole unless base says what it holds: the
// catalog at base.version, to which the index moved only by the writes
// of base.steps, one after the other, each changing the files of
// base.changed alone and no file's segment. Then only those files' rows
// are read. A one-file change at 100,000 files read 100,000 rows, two
// fifths of a second, where it now reads one.
func writeSnapshot(ctx context.Context, tx *sql.Tx, base *snapshotBase) ([]*Entry, string, error) {
	var version string
	if err := tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'updated'`).Scan(&version); err != nil {
		return nil, "", err
	}
	var entries []*Entry
	var err error
	whole := !base.holds(version)
	if whole {
		entries, err = readEntries(ctx, tx)
	} else {
		entries, err = base.entries(ctx, tx)
	}
	if testHookSnapshot != nil {
		testHookSnapshot(whole)
	}
	if err != nil {
		return nil, "", err
	}
	// In the order of a walk, for a snapshotWalk.
	if !slices.IsSortedFunc(entries, entryByPath) {
		slices.SortFunc(entries, entryByPath)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO snapshot(id, version, data) VALUES(1, ?, ?)
		ON CONFLICT(id) DO UPDATE SET version = excluded.version, data = excluded.data`, version, encodeEntries(entries))
	return entries, version, err
}

// entryByPath orders entries by path, as a walk meets them.
func entryByPath(a, b *Entry) int { return strings.Compare(a.Path, b.Path) }

// testHookSnapshot, if set, is told whether writeSnapshot read the files
// table whole.
var testHookSnapshot func(whole bool)

// versionStep is one write's move of the index's version.
type versionStep struct{ from, to string }

// snapshotBase is what an update knows of the files table: the catalog
// it read, at version, and the writes it made since.
type snapshotBase struct {
	catalog map[string]*Entry
	ordered []*Entry // the catalog's entries in the order of their paths, if known
	version string
	steps   []versionStep
	changed []string // the paths whose rows the writes may have changed
}

// holds reports whether the files table at version is the catalog with
// the changed rows alone written again: the steps lead from the
// catalog's version to version, with no other process's write between.
func (b *snapshotBase) holds(version string) bool {
	if b == nil || b.catalog == nil || len(b.steps) == 0 {
		return false
	}
	at := b.version
	for _, s := range b.steps {
		if s.from != at {
			return false
		}
		at = s.to
	}
	return at == version
}

// maxChangedRead: past this many changed files, the table is read whole.
const maxChangedRead = 4096

// entries is the catalog with the changed files' rows read again.
func (b *snapshotBase) entries(ctx context.Context, q queryer) ([]*Entry, error) {
	changed := make(map[string]bool, len(b.changed))
	for _, p := range b.changed {
		changed[p] = true
	}
	var rows []*Entry
	const per = 500
	for at := 0; at < len(b.changed); at += per {
		paths := b.changed[at:min(at+per, len(b.changed))]
		args := make([]any, len(paths))
		for i, p := range paths {
			args[i] = p
		}
		var err error
		rows, err = scanEntries(ctx, q, rows, `SELECT `+entryColumns+` FROM files WHERE path IN (?`+strings.Repeat(",?", len(paths)-1)+`)`, args...)
		if err != nil {
			return nil, err
		}
	}
	out := make([]*Entry, 0, len(b.catalog)+len(rows))
	if b.ordered == nil {
		for p, e := range b.catalog {
			if !changed[p] {
				out = append(out, e)
			}
		}
		return append(out, rows...), nil
	}
	// The catalog's order kept, the rows merged into it: at 100,000
	// files, sorting them all again took a tenth of a second.
	slices.SortFunc(rows, entryByPath)
	for _, e := range b.ordered {
		if changed[e.Path] {
			continue
		}
		for len(rows) > 0 && rows[0].Path < e.Path {
			out = append(out, rows[0])
			rows = rows[1:]
		}
		out = append(out, e)
	}
	return append(out, rows...), nil
}

// Status describes an index.
type Status struct {
	Path     string
	Root     string
	Files    int
	Bytes    int64 // of the database: its pages, in its file or its WAL
	Source   int64 // bytes of the indexed files
	Segments int
	Delta    int // files not yet in a segment
	Updated  time.Time
	// Complete: the last update finished. An update killed, or under way
	// in another process, leaves the index incomplete: it answers from
	// the files indexed so far, and the next update goes on from there.
	Complete bool
	// Skipped are the files the last update could not read.
	Skipped Skipped
}

// Footprint is what an update says of the index: the bytes of the files
// it holds, and of the database (Status's Source and Bytes, without the
// rest of Status, whose count of segments reads the postings: a
// millisecond or two of a no-change hone index on django).
func (ix *Index) Footprint(ctx context.Context) (source, bytes int64, err error) {
	ix.mu.Lock()
	source = ix.source
	ix.mu.Unlock()
	bytes, err = ix.dbBytes(ctx)
	return source, bytes, err
}

// dbBytes is the database's size: its pages, whether in its file or still
// in its WAL, counted once, what the file holds once checkpointed. The
// files' sizes would not do: an update's WAL, as large as the pages it
// rewrote, is there until the last connection closes, and gone after.
func (ix *Index) dbBytes(ctx context.Context) (int64, error) {
	var pages, pageSize int64
	if err := ix.reader().QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
		return 0, fmt.Errorf("read index %s: %w", ix.Path, err)
	}
	if err := ix.reader().QueryRowContext(ctx, `PRAGMA page_size`).Scan(&pageSize); err != nil {
		return 0, fmt.Errorf("read index %s: %w", ix.Path, err)
	}
	return pages * pageSize, nil
}

// Status reports on the index.
func (ix *Index) Status(ctx context.Context) (Status, error) {
	st := Status{Path: ix.Path, Root: ix.Root}
	ix.mu.Lock()
	st.Files = ix.files()
	st.Complete = ix.loaded != "" && ix.snapshotOK
	st.Source, st.Delta = ix.source, ix.inDelta
	ix.mu.Unlock()
	var err error
	if st.Bytes, err = ix.dbBytes(ctx); err != nil {
		return st, err
	}
	if err := ix.reader().QueryRowContext(ctx, `SELECT COUNT(DISTINCT seg) FROM postings`).Scan(&st.Segments); err != nil {
		return st, fmt.Errorf("read index %s: %w", ix.Path, err)
	}
	skipped, err := readSkipped(ctx, ix.reader())
	if err != nil {
		return st, fmt.Errorf("read index %s: %w", ix.Path, err)
	}
	st.Skipped = skipped
	var updated string
	err = ix.reader().QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'updated'`).Scan(&updated)
	if err == nil {
		st.Updated, _ = time.Parse(time.RFC3339Nano, updated)
	} else if !errors.Is(err, sql.ErrNoRows) {
		return st, fmt.Errorf("read index %s: %w", ix.Path, err)
	}
	return st, nil
}
