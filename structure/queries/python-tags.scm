; Adapted from tree-sitter-python v0.25.0 queries/tags.scm (MIT, see NOTICE.md).
; Changes: module-level assignments are variables (structure keeps only
; CONSTANT and CamelCase names); base classes and type annotations are
; references; imports are captured for structure's import list.

(module
  (expression_statement
    (assignment left: (identifier) @name) @definition.variable))

(class_definition
  name: (identifier) @name) @definition.class

(function_definition
  name: (identifier) @name) @definition.function

(call
  function: [
      (identifier) @name
      (attribute
        attribute: (identifier) @name)
  ]) @reference.call

(class_definition
  superclasses: (argument_list
    [
      (identifier) @name
      (attribute attribute: (identifier) @name)
    ] @reference.class))

(type
  [
    (identifier) @name
    (attribute attribute: (identifier) @name)
  ]) @reference.type

(import_statement) @import
(import_from_statement) @import
(future_import_statement) @import
