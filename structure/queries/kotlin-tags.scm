; Written for tree-sitter-kotlin v1.1.0 (tree-sitter-grammars), which ships
; no tags query; in the style of the other tags queries (see NOTICE.md).

(class_declaration
  "interface"
  name: (identifier) @name) @definition.interface

(class_declaration
  name: (identifier) @name
  (enum_class_body)) @definition.enum

(class_declaration
  name: (identifier) @name) @definition.class

(object_declaration
  name: (identifier) @name) @definition.class

(companion_object
  name: (identifier) @name) @definition.class

(function_declaration
  name: (identifier) @name) @definition.function

(type_alias
  type: (identifier) @name) @definition.type

(source_file
  (property_declaration
    (variable_declaration (identifier) @name)) @definition.variable)

(class_body
  (property_declaration
    (variable_declaration (identifier) @name)) @definition.variable)

(call_expression
  [
    (identifier) @name
    (navigation_expression (identifier) @name .)
  ]) @reference.call

(delegation_specifier
  [
    (user_type (identifier) @name)
    (constructor_invocation (user_type (identifier) @name))
  ]) @reference.class

(user_type (identifier) @name) @reference.type

(import) @import
