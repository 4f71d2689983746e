; Adapted from tree-sitter-ruby v0.23.1 queries/tags.scm (MIT, see NOTICE.md).
; Changes: documentation-comment captures dropped (unused, and costly); the
; catch-all pattern that took every identifier for a call (it relies on
; local-variable tracking, which the Go bindings lack) is replaced by
; constants as class references; require and require_relative are captured
; for structure's import list.

; Method definitions

[
  (method
    name: (_) @name) @definition.method
  (singleton_method
    name: (_) @name) @definition.method
]

(alias
  name: (_) @name) @definition.method

; Class definitions

[
  (class
    name: [
      (constant) @name
      (scope_resolution
        name: (_) @name)
    ]) @definition.class
  (singleton_class
    value: [
      (constant) @name
      (scope_resolution
        name: (_) @name)
    ]) @definition.class
]

; Module definitions

(
  (module
    name: [
      (constant) @name
      (scope_resolution
        name: (_) @name)
    ]) @definition.module
)

(assignment left: (constant) @name) @definition.constant

; Calls

((call method: (identifier) @name) @reference.call
  (#not-eq? @name "require")
  (#not-eq? @name "require_relative"))

(constant) @name @reference.class

; Imports
((call
  method: (identifier) @_require
  arguments: (argument_list . (string (string_content) @import)))
  (#any-of? @_require "require" "require_relative"))
