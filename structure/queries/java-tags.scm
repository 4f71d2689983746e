; Adapted from tree-sitter-java v0.23.5 queries/tags.scm (MIT, see NOTICE.md).
; Changes: enums, records, annotation types and constructors are
; definitions; `new X()` is a call of X; type identifiers are type
; references; imports are captured for structure's import list.

(class_declaration
  name: (identifier) @name) @definition.class

(record_declaration
  name: (identifier) @name) @definition.class

(enum_declaration
  name: (identifier) @name) @definition.enum

(method_declaration
  name: (identifier) @name) @definition.method

(constructor_declaration
  name: (identifier) @name) @definition.method

(method_invocation
  name: (identifier) @name
  arguments: (argument_list) @reference.call)

(interface_declaration
  name: (identifier) @name) @definition.interface

(annotation_type_declaration
  name: (identifier) @name) @definition.interface

(type_list
  (type_identifier) @name) @reference.implementation

(object_creation_expression
  type: [
    (type_identifier) @name
    (generic_type (type_identifier) @name)
    (scoped_type_identifier (type_identifier) @name .)
  ]) @reference.call

(superclass (type_identifier) @name) @reference.class

(type_identifier) @name @reference.type

(import_declaration
  [(scoped_identifier) (identifier)] @import)
