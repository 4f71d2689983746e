; Adapted from tree-sitter-javascript v0.25.0 queries/tags.scm (MIT, see
; NOTICE.md). The TypeScript query is this file followed by typescript-tags.scm.
; Changes: documentation-comment captures dropped (unused, and costly);
; #not-match? on a fixed word became #not-eq?; `new X()` is a call of X;
; top-level variables and re-exports are definitions; imports are captured
; for structure's import list.

(method_definition
  name: [(property_identifier) (private_property_identifier)] @name
  (#not-eq? @name "constructor")) @definition.method

[
  (class
    name: (_) @name)
  (class_declaration
    name: (_) @name)
] @definition.class

[
  (function_expression
    name: (identifier) @name)
  (function_declaration
    name: (identifier) @name)
  (generator_function
    name: (identifier) @name)
  (generator_function_declaration
    name: (identifier) @name)
] @definition.function

(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression)]) @definition.function)

(variable_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression)]) @definition.function)

(assignment_expression
  left: [
    (identifier) @name
    (member_expression
      property: (property_identifier) @name)
  ]
  right: [(arrow_function) (function_expression)]
) @definition.function

(pair
  key: (property_identifier) @name
  value: [(arrow_function) (function_expression)]) @definition.function

(
  (call_expression
    function: (identifier) @name) @reference.call
  (#not-eq? @name "require")
)

(call_expression
  function: (member_expression
    property: (property_identifier) @name)
  arguments: (_) @reference.call)

(new_expression
  constructor: [
    (identifier) @name
    (member_expression property: (property_identifier) @name)
  ]) @reference.call

(export_statement value: (assignment_expression left: (identifier) @name right: ([
 (number)
 (string)
 (identifier)
 (undefined)
 (null)
 (new_expression)
 (binary_expression)
 (call_expression)
]))) @definition.constant

; Top-level variables (after the function patterns: a variable holding a
; function is a function).
(program
  (lexical_declaration
    (variable_declarator name: (identifier) @name) @definition.variable))
(program
  (variable_declaration
    (variable_declarator name: (identifier) @name) @definition.variable))
(program
  (export_statement
    declaration: [(lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable)
                  (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable)]))

; Re-exports: export { a, b as c } from './m' defines a and c.
(export_statement
  (export_clause
    (export_specifier name: (_) @name !alias) @definition.export)
  source: (_))
(export_statement
  (export_clause
    (export_specifier alias: (_) @name) @definition.export)
  source: (_))

; Imports
(import_statement source: (string) @import)
(export_statement source: (string) @import)
((call_expression
  function: (identifier) @_require
  arguments: (arguments . (string) @import))
  (#eq? @_require "require"))
(call_expression
  function: (import)
  arguments: (arguments . (string) @import))
