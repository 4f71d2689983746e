; Adapted from tree-sitter-scala v0.24.0 queries/tags.scm (MIT, see NOTICE.md).
; Changes: objects are classes; values and variables are definitions only
; at the top level or in a template body (not locals); class parameters and
; enum cases are left out; method calls on a receiver are calls; imports are
; captured for structure's import list.

; Definitions

(package_clause
  name: (package_identifier) @name) @definition.module

(trait_definition
  name: (identifier) @name) @definition.interface

(enum_definition
  name: (identifier) @name) @definition.enum

(class_definition
  name: (identifier) @name) @definition.class

(object_definition
  name: (identifier) @name) @definition.class

(function_definition
  name: (identifier) @name) @definition.function

(function_declaration
  name: (identifier) @name) @definition.method

(compilation_unit [
  (val_definition pattern: (identifier) @name)
  (var_definition pattern: (identifier) @name)
  (given_definition name: (identifier) @name)
] @definition.variable)

(template_body [
  (val_definition pattern: (identifier) @name)
  (var_definition pattern: (identifier) @name)
  (given_definition name: (identifier) @name)
  (val_declaration name: (identifier) @name)
  (var_declaration name: (identifier) @name)
] @definition.variable)

(type_definition
  name: (type_identifier) @name) @definition.type

; References

(call_expression
  function: [
    (identifier) @name
    (field_expression field: (identifier) @name)
  ]) @reference.call

(instance_expression
  [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
  ]) @reference.call

(extends_clause
  (type_identifier) @name) @reference.class

(extends_clause
  (generic_type
    (type_identifier) @name)) @reference.class

(import_declaration) @import
