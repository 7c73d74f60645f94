// The languages the code chunker knows: file extension → language name, grammar file (in
// @repomix/tree-sitter-wasms) and the syntax node types that define a named symbol. Pure data; no imports.

export interface CodeLanguage {
  /** The name pieces carry as `lang`. */
  readonly name: string;
  /** The grammar's file in @repomix/tree-sitter-wasms/out/. */
  readonly grammar: string;
  /** Node types that define a symbol (their `name` field, or a declarator's, names it). */
  readonly definitions: ReadonlySet<string>;
  /** Node types that only wrap a definition (`export`, decorators, templates): the symbol is the inner one's. */
  readonly wrappers: ReadonlySet<string>;
}

const set = (...types: string[]): ReadonlySet<string> => new Set(types);

const JS_DEFINITIONS = set(
  'function_declaration',
  'generator_function_declaration',
  'class_declaration',
  'abstract_class_declaration',
  'class',
  'method_definition',
  'interface_declaration',
  'type_alias_declaration',
  'enum_declaration',
  'internal_module',
  'module',
  'abstract_method_signature',
  'method_signature',
  'function_signature',
  'lexical_declaration',
  'variable_declaration',
  'public_field_definition',
  'field_definition',
);
const JS_WRAPPERS = set('export_statement', 'ambient_declaration');

const js = (name: string, grammar: string): CodeLanguage => ({
  name,
  grammar,
  definitions: JS_DEFINITIONS,
  wrappers: JS_WRAPPERS,
});

const PYTHON: CodeLanguage = {
  name: 'python',
  grammar: 'tree-sitter-python.wasm',
  definitions: set('function_definition', 'class_definition'),
  wrappers: set('decorated_definition'),
};
const GO: CodeLanguage = {
  name: 'go',
  grammar: 'tree-sitter-go.wasm',
  definitions: set('function_declaration', 'method_declaration', 'type_declaration'),
  wrappers: set(),
};
const RUST: CodeLanguage = {
  name: 'rust',
  grammar: 'tree-sitter-rust.wasm',
  definitions: set(
    'function_item',
    'function_signature_item',
    'struct_item',
    'enum_item',
    'union_item',
    'trait_item',
    'impl_item',
    'mod_item',
    'macro_definition',
    'type_item',
  ),
  wrappers: set(),
};
const JAVA: CodeLanguage = {
  name: 'java',
  grammar: 'tree-sitter-java.wasm',
  definitions: set(
    'class_declaration',
    'interface_declaration',
    'enum_declaration',
    'record_declaration',
    'annotation_type_declaration',
    'method_declaration',
    'constructor_declaration',
  ),
  wrappers: set(),
};
const C_DEFINITIONS = [
  'function_definition',
  'struct_specifier',
  'union_specifier',
  'enum_specifier',
  'class_specifier',
  'namespace_definition',
];
const C: CodeLanguage = {
  name: 'c',
  grammar: 'tree-sitter-c.wasm',
  definitions: set(...C_DEFINITIONS),
  wrappers: set(),
};
const CPP: CodeLanguage = {
  name: 'cpp',
  grammar: 'tree-sitter-cpp.wasm',
  definitions: set(...C_DEFINITIONS),
  wrappers: set('template_declaration'),
};
const CSHARP: CodeLanguage = {
  name: 'csharp',
  grammar: 'tree-sitter-c_sharp.wasm',
  definitions: set(
    'class_declaration',
    'interface_declaration',
    'struct_declaration',
    'enum_declaration',
    'record_declaration',
    'method_declaration',
    'constructor_declaration',
    'property_declaration',
    'namespace_declaration',
    'file_scoped_namespace_declaration',
  ),
  wrappers: set(),
};
const RUBY: CodeLanguage = {
  name: 'ruby',
  grammar: 'tree-sitter-ruby.wasm',
  definitions: set('method', 'singleton_method', 'class', 'module'),
  wrappers: set(),
};
const PHP: CodeLanguage = {
  name: 'php',
  grammar: 'tree-sitter-php.wasm',
  definitions: set(
    'function_definition',
    'class_declaration',
    'interface_declaration',
    'trait_declaration',
    'enum_declaration',
    'method_declaration',
    'namespace_definition',
  ),
  wrappers: set(),
};

const BY_EXTENSION: Readonly<Record<string, CodeLanguage>> = {
  ts: js('typescript', 'tree-sitter-typescript.wasm'),
  mts: js('typescript', 'tree-sitter-typescript.wasm'),
  cts: js('typescript', 'tree-sitter-typescript.wasm'),
  tsx: js('tsx', 'tree-sitter-tsx.wasm'),
  js: js('javascript', 'tree-sitter-javascript.wasm'),
  mjs: js('javascript', 'tree-sitter-javascript.wasm'),
  cjs: js('javascript', 'tree-sitter-javascript.wasm'),
  jsx: js('javascript', 'tree-sitter-javascript.wasm'),
  py: PYTHON,
  pyi: PYTHON,
  go: GO,
  rs: RUST,
  java: JAVA,
  c: C,
  h: C,
  cc: CPP,
  cpp: CPP,
  cxx: CPP,
  hh: CPP,
  hpp: CPP,
  hxx: CPP,
  cs: CSHARP,
  rb: RUBY,
  php: PHP,
};

/** The language of a path or source id by its extension (case-insensitive); undefined when none is known. */
export function languageOf(sourceId: string): CodeLanguage | undefined {
  const dot = sourceId.lastIndexOf('.');
  if (dot < 0 || sourceId.indexOf('/', dot) >= 0) return undefined;
  return BY_EXTENSION[sourceId.slice(dot + 1).toLowerCase()];
}

/** Every known extension → language name, for the docs' table and `kbctx` help. */
export const CODE_EXTENSIONS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(BY_EXTENSION).map(([ext, lang]) => [ext, lang.name]),
);
