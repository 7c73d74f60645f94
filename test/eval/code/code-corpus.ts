// The code-search eval's corpus, built from open-source code installed from npm (no network): each
// package's source files, and one query per documented function.
// 1. Parse every file (web-tree-sitter, the chunker-code plugin's grammars) and find the functions and
//    methods with a doc comment: a JSDoc block (`/** … */`) above one (at most a blank line between), or a
//    Python docstring.
// 2. The query is the doc's first sentence (4 to 40 words; a sentence two functions share is dropped).
// 3. The indexed file has those doc comments removed (a docstring that is a body's only statement
//    becomes `pass`), so a query never matches its own words.
// 4. The relevant answer is the function, known by its first line (its signature), unique in its file.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Node } from 'web-tree-sitter';
import { languageOf } from '../../../plugins/chunker-code/api.ts';
import { parserFor } from '../../../plugins/chunker-code/grammars.ts';

export interface CodePackage {
  /** The package's folder under node_modules, and the sub-folder holding its sources. */
  name: string;
  dir: string;
  /** Source files to take (a regular expression on the path under `dir`). */
  files: RegExp;
  /** At most this many queries, taken evenly over the package's functions in path order. */
  maxQueries: number;
}

export interface CodeQuery {
  id: string;
  text: string;
  /** The corpus file (package/path) the function is in, and its first line there. */
  file: string;
  signature: string;
}

export interface CodeCorpus {
  files: { path: string; text: string }[];
  queries: CodeQuery[];
}

const FUNCTIONS = new Set(['function_declaration', 'generator_function_declaration', 'method_definition']);

export async function buildCodeCorpus(root: string, packages: readonly CodePackage[]): Promise<CodeCorpus> {
  const files: CodeCorpus['files'] = [];
  const queries: CodeQuery[] = [];
  for (const pkg of packages) {
    const found: CodeQuery[] = [];
    for (const relative of listFiles(path.join(root, pkg.dir)).filter((f) => pkg.files.test(f))) {
      const file = `${pkg.name}/${relative}`;
      const source = readFileSync(path.join(root, pkg.dir, relative), 'utf8');
      const { text, documented } = await stripDocs(file, source);
      files.push({ path: file, text });
      for (const d of documented) {
        const lines = text.split('\n').filter((l) => l.trim() === d.signature);
        if (lines.length === 1)
          found.push({ id: `${file}#${d.signature}`, text: d.query, file, signature: d.signature });
      }
    }
    queries.push(...evenly(found, pkg.maxQueries));
  }
  const counts = new Map<string, number>();
  for (const q of queries) counts.set(q.text.toLowerCase(), (counts.get(q.text.toLowerCase()) ?? 0) + 1);
  return { files, queries: queries.filter((q) => counts.get(q.text.toLowerCase()) === 1) };
}

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) =>
      e.isDirectory() ? listFiles(dir, `${prefix}${e.name}/`) : e.isFile() ? [`${prefix}${e.name}`] : [],
    );
}

function evenly<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  return Array.from({ length: max }, (_, i) => items[Math.floor((i * items.length) / max)]!);
}

interface Documented {
  query: string;
  signature: string;
}

/** Steps 1–3 for one file: its text without the doc comments, and the documented functions. */
async function stripDocs(file: string, source: string): Promise<{ text: string; documented: Documented[] }> {
  const language = languageOf(file);
  if (!language) return { text: source, documented: [] };
  const parser = await parserFor(language);
  const tree = parser.parse(source);
  const cuts: { start: number; end: number; with: string }[] = [];
  const documented: Documented[] = [];
  const visit = (node: Node): void => {
    for (const child of node.namedChildren) {
      if (!child) continue;
      const doc = language.name === 'python' ? docstringOf(child) : jsdocOf(child, source);
      if (doc) {
        cuts.push(doc.cut);
        const query = firstSentence(doc.text);
        const signature = source.slice(child.startIndex).split('\n')[0]!.trim();
        if (query && signature.length > 3) documented.push({ query, signature });
      }
      visit(child);
    }
  };
  if (tree) visit(tree.rootNode);
  tree?.delete();
  parser.delete();
  let text = source;
  for (const cut of cuts.sort((a, b) => b.start - a.start))
    text = text.slice(0, cut.start) + cut.with + text.slice(cut.end);
  return { text, documented };
}

type Doc = { text: string; cut: { start: number; end: number; with: string } } | undefined;

/** A JSDoc block directly above a function or method (or above the `export` wrapping it). */
function jsdocOf(node: Node, source: string): Doc {
  if (!FUNCTIONS.has(node.type)) return undefined;
  const outer = node.parent?.type === 'export_statement' ? node.parent : node;
  const comment = outer.previousNamedSibling;
  if (comment?.type !== 'comment' || !comment.text.startsWith('/**')) return undefined;
  if (!/^[ \t]*\r?\n(?:[ \t]*\r?\n)?[ \t]*$/.test(source.slice(comment.endIndex, outer.startIndex))) return undefined;
  const text = comment.text
    .replace(/^\/\*\*|\*\/$/g, '')
    .split('\n')
    .map((l) => l.replace(/^\s*\* ?/, ''))
    .join('\n');
  return { text, cut: { start: comment.startIndex, end: outer.startIndex, with: '' } };
}

/** A Python function's docstring: the first statement of its body, a string. */
function docstringOf(node: Node): Doc {
  if (node.type !== 'function_definition') return undefined;
  const body = node.childForFieldName('body');
  const first = body?.namedChildren[0];
  if (!body || first?.type !== 'expression_statement' || first.namedChildren[0]?.type !== 'string') return undefined;
  const next = body.namedChildren[1];
  const text = first.text.replace(/^[rRuUbB]*("""|'''|"|')|("""|'''|"|')$/g, '');
  const cut = next
    ? { start: first.startIndex, end: next.startIndex, with: '' }
    : { start: first.startIndex, end: first.endIndex, with: 'pass' };
  return { text, cut };
}

/** Step 2: the first sentence of a doc, before any `@tag`, as one line; undefined when too short or long. */
export function firstSentence(doc: string): string | undefined {
  const prose = doc.split(/\n\s*@|^\s*@/)[0] ?? '';
  const flat = prose
    .replace(/\{@\w+\s+([^}]*)\}/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  const sentence = (/^(.+?[.!?])(\s|$)/.exec(flat)?.[1] ?? flat).trim();
  const words = sentence.split(' ').filter((w) => /\w/.test(w));
  return words.length >= 4 && words.length <= 40 ? sentence : undefined;
}
