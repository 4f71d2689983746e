; Written for tree-sitter-bash v0.25.1, which ships no tags query; in the
; style of the other tags queries (see NOTICE.md).

(function_definition
  name: (word) @name) @definition.function

((command
  name: (command_name (word) @name)) @reference.call
  (#not-any-of? @name "source" "."))

((command
  name: (command_name (word) @_source)
  argument: [(word) (string) (raw_string)] @import)
  (#any-of? @_source "source" "."))
