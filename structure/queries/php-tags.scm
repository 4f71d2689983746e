; Adapted from tree-sitter-php v0.24.2 queries/tags.scm (MIT, see NOTICE.md).
; Changes: methods are methods (upstream: functions); enums and constants
; are definitions; `new X()` is a call of X; use clauses and include or
; require of a literal path are captured for structure's import list.

(namespace_definition
  name: (namespace_name) @name) @definition.module

(interface_declaration
  name: (name) @name) @definition.interface

(trait_declaration
  name: (name) @name) @definition.interface

(class_declaration
  name: (name) @name) @definition.class

(enum_declaration
  name: (name) @name) @definition.enum

(class_interface_clause [(name) (qualified_name)] @name) @reference.implementation

(property_declaration
  (property_element (variable_name (name) @name))) @definition.field

(const_declaration
  (const_element (name) @name)) @definition.constant

(function_definition
  name: (name) @name) @definition.function

(method_declaration
  name: (name) @name) @definition.method

(object_creation_expression
  [
    (name) @name
    (qualified_name (name) @name)
    (variable_name (name) @name)
  ]) @reference.call

(function_call_expression
  function: [
    (name) @name
    (qualified_name (name) @name)
    (variable_name (name)) @name
  ]) @reference.call

(scoped_call_expression
  name: (name) @name) @reference.call

(member_call_expression
  name: (name) @name) @reference.call

(namespace_use_clause) @import

(require_expression (string) @import)
(require_once_expression (string) @import)
(include_expression (string) @import)
(include_once_expression (string) @import)
