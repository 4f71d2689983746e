; Adapted from tree-sitter-c-sharp v0.23.5 queries/tags.scm (MIT, see
; NOTICE.md).
; Changes: structs, records, enums, delegates, constructors, properties and
; qualified or file-scoped namespaces are definitions; plain calls and
; `new X()` are calls; the duplicate namespace pattern is dropped; using
; directives are captured for structure's import list.

(class_declaration name: (identifier) @name) @definition.class

(class_declaration (base_list (_) @name)) @reference.class

(record_declaration name: (identifier) @name) @definition.class

(struct_declaration name: (identifier) @name) @definition.type

(enum_declaration name: (identifier) @name) @definition.enum

(delegate_declaration name: (identifier) @name) @definition.type

(interface_declaration name: (identifier) @name) @definition.interface

(interface_declaration (base_list (_) @name)) @reference.interface

(method_declaration name: (identifier) @name) @definition.method

(constructor_declaration name: (identifier) @name) @definition.method

(property_declaration name: (identifier) @name) @definition.field

(object_creation_expression type: [
  (identifier) @name
  (generic_name (identifier) @name)
  (qualified_name name: (identifier) @name)
]) @reference.call

(type_parameter_constraints_clause (identifier) @name) @reference.class

(type_parameter_constraint (type type: (identifier) @name)) @reference.class

(variable_declaration type: (identifier) @name) @reference.class

(invocation_expression function: (member_access_expression name: (identifier) @name)) @reference.send

(invocation_expression function: (identifier) @name) @reference.call

(invocation_expression function: (generic_name (identifier) @name)) @reference.call

(namespace_declaration name: [(identifier) (qualified_name)] @name) @definition.module

(file_scoped_namespace_declaration name: [(identifier) (qualified_name)] @name) @definition.module

(using_directive) @import
