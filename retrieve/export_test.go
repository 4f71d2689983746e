package retrieve

// WriteFiles is writeFiles for the package's external tests.
var WriteFiles = writeFiles
