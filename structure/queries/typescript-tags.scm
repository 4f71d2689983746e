; Adapted from tree-sitter-typescript v0.23.2 queries/tags.scm (MIT, see
; NOTICE.md). Used after javascript-tags.scm, as upstream does.
; Changes: `new X()` is a call (javascript-tags.scm has it); type aliases,
; enums and namespaces are definitions; any type identifier is a type
; reference.

(function_signature
  name: (identifier) @name) @definition.function

(method_signature
  name: (property_identifier) @name) @definition.method

(abstract_method_signature
  name: (property_identifier) @name) @definition.method

(abstract_class_declaration
  name: (type_identifier) @name) @definition.class

(module
  name: (identifier) @name) @definition.module

(internal_module
  name: (identifier) @name) @definition.module

(interface_declaration
  name: (type_identifier) @name) @definition.interface

(type_alias_declaration
  name: (type_identifier) @name) @definition.type

(enum_declaration
  name: (identifier) @name) @definition.enum

(type_identifier) @name @reference.type
