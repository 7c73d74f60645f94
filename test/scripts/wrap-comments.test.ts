// scripts/wrap-comments.ts (ADR 0182): comments wider than 120 columns are refilled, trailing ones moved above their
// line; code, strings, directives and typed JSDoc tags are left as they are, and a second run changes nothing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { it } from 'node:test';
import { rewrapComments } from '../../scripts/comments/rewrap.ts';
import { REPO_ROOT } from '../helpers/workspace.ts';

const words = (n: number, word = 'lorem'): string => Array.from({ length: n }, () => word).join(' ');
const widest = (text: string): number => Math.max(...text.split('\n').map((l) => [...l].length));

it('refills a run of // lines and a one-line JSDoc wider than 120 columns, leaving short comments alone', () => {
  const source = [
    '// Short header.',
    '',
    'export function f(): number {',
    `  // ${words(30)}`,
    '  // the end of that paragraph.',
    '  //',
    '  // A second paragraph, short.',
    '  return 1;',
    '}',
    `/** ${words(28, 'ipsum')} (ADR 0130). */`,
    'export const x = 2;',
    '',
  ].join('\n');
  const { text, changed } = rewrapComments('a.ts', source);
  assert.ok(widest(text) <= 120, text);
  assert.deepEqual(changed, [4, 10]);
  assert.ok(text.startsWith('// Short header.\n\nexport function f(): number {\n  // lorem'), text);
  assert.match(text, /\n {2}\/\/\n {2}\/\/ A second paragraph, short.\n {2}return 1;\n/);
  assert.match(text, /\n\/\*\*\n \* ipsum[^]* \*\/\nexport const x = 2;\n$/);
  assert.match(text, /\(ADR 0130\)/, 'an ADR number stays with its word');
  assert.equal(text.replace(/\s+|\/\/|\/\*\*|\*\/|\*/g, ''), source.replace(/\s+|\/\/|\/\*\*|\*\/|\*/g, ''));
  assert.deepEqual(rewrapComments('a.ts', text), { text, changed: [] }, 'a second run changes nothing');
});

it('never starts a line with a word that would read as a list item or a tag', () => {
  const source = `/** ${words(22, 'text')} be 400, never 500. */\nexport const z = 1;\n`;
  const { text } = rewrapComments('e.ts', source);
  assert.ok(widest(text) <= 120, text);
  assert.match(text, /\n \* never 500\.\n \*\/\n/);
});

it('moves a trailing comment above its line, at its indentation', () => {
  const code = `  const value = compute(${words(12, 'argument').replaceAll(' ', ', ')});`;
  const source = `function g() {\n${code} // ${words(8, 'why')}\n}\n`;
  const { text } = rewrapComments('b.ts', source);
  assert.equal(text, `function g() {\n  // ${words(8, 'why')}\n${code}\n}\n`);
});

it('leaves strings, templates, regular expressions, directives and typed JSDoc tags as they are', () => {
  const source = [
    `const url = 'http://example.com/${words(25, 'path')}'; // ${words(3)}`,
    `const t = \`first line`,
    `${words(20, 'inside')} // not a comment ${words(5)}\`;`,
    `const r = /${words(30, 'x').replaceAll(' ', '|')}/;`,
    `// eslint-disable-next-line @typescript-eslint/no-explicit-any -- ${words(20, 'reason')}`,
    'type A = any;',
    `/** @param {{ ${words(25, 'a: string,')} }} props */`,
    'export function h(props) { return [url, t, r, props]; }',
    '',
  ].join('\n');
  const { text } = rewrapComments('c.js', source);
  const lines = text.split('\n');
  assert.equal(lines[0], `// ${words(3)}`, 'the trailing comment of a code line moved');
  assert.deepEqual(
    lines.slice(1),
    source.split('\n').map((l, i) => (i === 0 ? l.replace(/ \/\/ .*$/, '') : l)),
  );
});

it('keeps a JSDoc type in braces on one line when refilling around it', () => {
  const source =
    `/** ${words(22, 'text')} @param {Record<string, string>} params */\n` +
    `export function k(params) { return params; }\n`;
  const { text } = rewrapComments('d.js', source);
  assert.ok(widest(text) <= 120, text);
  assert.match(text, /\n \* (text )*@param \{Record<string, string>\} params\n \*\/\n/);
});

it('the command rewrites files in place; --check writes nothing and exits 1 when a comment would change', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-wrap-'));
  try {
    const file = path.join(dir, 'long.ts');
    const source = `// ${words(40)}\nexport const y = 1;\n`;
    writeFileSync(file, source);
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts/wrap-comments.ts'), ...args, file], {
        encoding: 'utf8',
      });
    assert.equal(run('--check').status, 1);
    assert.equal(readFileSync(file, 'utf8'), source);
    assert.equal(run().status, 0);
    assert.ok(widest(readFileSync(file, 'utf8')) <= 120);
    assert.equal(run('--check').status, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
