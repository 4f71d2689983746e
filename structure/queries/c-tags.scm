; Adapted from tree-sitter-c v0.23.4 queries/tags.scm (MIT, see NOTICE.md).
; Changes: a function definition spans its body (upstream tags only the
; declarator); structs and unions are types and enums enums; macros are
; definitions; calls and type identifiers are references; includes
; are captured for structure's import list.

(struct_specifier name: (type_identifier) @name body:(_)) @definition.type

(union_specifier name: (type_identifier) @name body:(_)) @definition.type

(function_definition
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
  ]) @definition.function

(declaration
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
  ]) @definition.function

(type_definition declarator: (type_identifier) @name) @definition.type

(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum

(preproc_def name: (identifier) @name) @definition.constant

(preproc_function_def name: (identifier) @name) @definition.macro

(call_expression
  function: [
    (identifier) @name
    (field_expression field: (field_identifier) @name)
  ]) @reference.call

(type_identifier) @name @reference.type

(preproc_include path: (string_literal) @import)
(preproc_include path: (system_lib_string) @import)
