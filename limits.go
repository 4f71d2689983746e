package hone

// MaxTaskBytes bounds a task, wherever it comes from (a file, standard
// input, an MCP call): a whole issue with its stack traces fits in it.
const MaxTaskBytes = 1 << 20
