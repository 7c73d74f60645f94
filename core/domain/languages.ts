// File extension → language name: the one table the `lang` search filter (and any code-aware part) reads.
// Names are lower case and stable on the wire (`lang: "typescript"`); an extension is matched lower-cased.

export const LANGUAGE_EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  typescript: ['ts', 'tsx', 'mts', 'cts'],
  javascript: ['js', 'jsx', 'mjs', 'cjs'],
  python: ['py', 'pyi'],
  go: ['go'],
  rust: ['rs'],
  java: ['java'],
  kotlin: ['kt', 'kts'],
  c: ['c', 'h'],
  cpp: ['cc', 'cpp', 'cxx', 'hpp', 'hh', 'hxx'],
  csharp: ['cs'],
  ruby: ['rb'],
  php: ['php'],
  swift: ['swift'],
  scala: ['scala'],
  lua: ['lua'],
  shell: ['sh', 'bash', 'zsh'],
  sql: ['sql'],
  markdown: ['md', 'markdown', 'mdx'],
  html: ['html', 'htm'],
  css: ['css', 'scss', 'less'],
  json: ['json'],
  yaml: ['yaml', 'yml'],
  toml: ['toml'],
  xml: ['xml'],
  text: ['txt', 'rst', 'adoc'],
  pdf: ['pdf'],
};

const BY_EXTENSION = new Map(
  Object.entries(LANGUAGE_EXTENSIONS).flatMap(([lang, exts]) => exts.map((ext) => [ext, lang] as const)),
);

/** The language of a path or URL by its last extension (`src/a.test.ts` → typescript); undefined when unknown. */
export function languageOf(pathOrUrl: string): string | undefined {
  const name =
    pathOrUrl
      .replace(/[?#].*$/, '')
      .split('/')
      .at(-1) ?? '';
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? undefined : BY_EXTENSION.get(name.slice(dot + 1).toLowerCase());
}

export const LANGUAGES: readonly string[] = Object.keys(LANGUAGE_EXTENSIONS);
