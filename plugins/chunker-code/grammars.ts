// Loads web-tree-sitter and a language's WebAssembly grammar on first use, once per process: nothing
// here runs until a code file is chunked. Grammars come from @repomix/tree-sitter-wasms (ADR 0207);
// nothing is downloaded.
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as WebTreeSitter from 'web-tree-sitter';
import type { Language, Parser } from 'web-tree-sitter';
import type { CodeLanguage } from './languages.ts';

type TreeSitter = typeof WebTreeSitter;

let runtime: Promise<TreeSitter> | undefined;
const languages = new Map<string, Promise<Language>>();

function loadRuntime(): Promise<TreeSitter> {
  runtime ??= import('web-tree-sitter').then(async (ts) => {
    await ts.Parser.init();
    return ts;
  });
  return runtime;
}

function grammarPath(file: string): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@repomix/tree-sitter-wasms/package.json')), 'out', file);
}

/** A parser set to `language`'s grammar (a new parser each call: parsers are cheap, grammars are cached). */
export async function parserFor(language: CodeLanguage): Promise<Parser> {
  const ts = await loadRuntime();
  let grammar = languages.get(language.grammar);
  if (!grammar) {
    grammar = ts.Language.load(grammarPath(language.grammar));
    languages.set(language.grammar, grammar);
    grammar.catch(() => languages.delete(language.grammar)); // a failed load is retried next time
  }
  const parser = new ts.Parser();
  parser.setLanguage(await grammar);
  return parser;
}
