; Adapted from tree-sitter-cpp v0.23.4 queries/tags.scm (MIT, see NOTICE.md).
; Changes: a function definition spans its body (upstream tags only the
; declarator); a method defined out of its class has the class as its
; @container; namespaces, enums and macros are definitions; calls and type
; identifiers are references; includes are captured for structure's
; import list; functions and methods declared or defined with a pointer,
; a pointer to a pointer or a reference returned are definitions.

(struct_specifier name: (type_identifier) @name body:(_)) @definition.class

(union_specifier name: (type_identifier) @name body:(_)) @definition.type

(class_specifier name: (type_identifier) @name body: (_)) @definition.class

(namespace_definition name: (namespace_identifier) @name) @definition.module

(function_definition
  declarator: [
    (function_declarator declarator: (qualified_identifier scope: (_) @container name: (_) @name))
    (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier scope: (_) @container name: (_) @name)))
    (reference_declarator (function_declarator declarator: (qualified_identifier scope: (_) @container name: (_) @name)))
  ]) @definition.method

(function_definition
  declarator: [
    (function_declarator declarator: [(identifier) (field_identifier) (operator_name) (destructor_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier)] @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier)] @name)))
    (reference_declarator (function_declarator declarator: [(identifier) (field_identifier)] @name))
  ]) @definition.function

(declaration
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
    (reference_declarator (function_declarator declarator: (identifier) @name))
  ]) @definition.function

(field_declaration
  declarator: [
    (function_declarator declarator: (field_identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (field_identifier) @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (field_identifier) @name)))
    (reference_declarator (function_declarator declarator: (field_identifier) @name))
  ]) @definition.method

(type_definition declarator: (type_identifier) @name) @definition.type

(alias_declaration name: (type_identifier) @name) @definition.type

(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum

(preproc_def name: (identifier) @name) @definition.constant

(preproc_function_def name: (identifier) @name) @definition.macro

(call_expression
  function: [
    (identifier) @name
    (field_expression field: (field_identifier) @name)
    (qualified_identifier name: (identifier) @name)
    (template_function name: (identifier) @name)
  ]) @reference.call

(new_expression type: (type_identifier) @name) @reference.call

(type_identifier) @name @reference.type

(preproc_include path: (string_literal) @import)
(preproc_include path: (system_lib_string) @import)
