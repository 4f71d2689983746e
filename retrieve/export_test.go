package retrieve

// WriteFiles is writeFiles for the package's external tests.
var WriteFiles = writeFiles

// RelevantFiles is relevantFiles for the package's external tests.
var RelevantFiles = relevantFiles
