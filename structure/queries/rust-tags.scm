; Adapted from tree-sitter-rust v0.24.0 queries/tags.scm (MIT, see NOTICE.md).
; Changes: structs, unions and aliases are types and enums enums (upstream
; calls them all classes); constants and statics are definitions; impl
; blocks are named @scope containers of their methods; type identifiers are
; type references; `use` and `mod x;` are captured for structure's import
; list.

; ADT definitions

(struct_item
    name: (type_identifier) @name) @definition.type

(enum_item
    name: (type_identifier) @name) @definition.enum

(union_item
    name: (type_identifier) @name) @definition.type

; type aliases

(type_item
    name: (type_identifier) @name) @definition.type

; method definitions

(declaration_list
    (function_item
        name: (identifier) @name) @definition.method)

; function definitions

(function_item
    name: (identifier) @name) @definition.function

(function_signature_item
    name: (identifier) @name) @definition.method

; trait definitions
(trait_item
    name: (type_identifier) @name) @definition.interface

; module definitions
(mod_item
    name: (identifier) @name
    body: (_)) @definition.module

; macro definitions

(macro_definition
    name: (identifier) @name) @definition.macro

(const_item
    name: (identifier) @name) @definition.constant

(static_item
    name: (identifier) @name) @definition.constant

; impl blocks name the container of their methods
(impl_item
    type: [
      (type_identifier) @name
      (generic_type type: (type_identifier) @name)
      (scoped_type_identifier name: (type_identifier) @name)
    ]) @scope

; references

(call_expression
    function: (identifier) @name) @reference.call

(call_expression
    function: (field_expression
        field: (field_identifier) @name)) @reference.call

(call_expression
    function: (scoped_identifier
        name: (identifier) @name)) @reference.call

(macro_invocation
    macro: (identifier) @name) @reference.call

; implementations

(impl_item
    trait: (type_identifier) @name) @reference.implementation

(impl_item
    type: (type_identifier) @name
    !trait) @reference.implementation

(type_identifier) @name @reference.type

; imports
(use_declaration
    argument: (_) @import)

(mod_item
    name: (identifier) @import
    !body)
