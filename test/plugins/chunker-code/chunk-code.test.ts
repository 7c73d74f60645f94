// The code chunker on real grammars: the chunks of a sample TypeScript class and a Python module
// (printed, and their symbols and lines asserted), the budget, token-safe boundaries, every language
// of the table, and the fallbacks to the text chunker.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it, type TestContext } from 'node:test';
import { chunkCode, chunkDocument, languageOf } from '../../../plugins/chunker-code/api.ts';
import { estimateTokens } from '../../../plugins/chunker-default/api.ts';
import type { ChunkPiece } from '../../../core/api/plugin.ts';

const sample = (name: string): string =>
  readFileSync(new URL(`../../fixtures/code/${name}.sample`, import.meta.url), 'utf8');

async function chunks(t: TestContext, file: string, text: string, maxTokens: number): Promise<ChunkPiece[]> {
  const pieces = await chunkCode(text, languageOf(file)!, { maxTokens, tolerateErrors: false });
  assert.ok(pieces, `${file} was left to the text chunker`);
  for (const p of pieces) t.diagnostic(`${p.lang} ${p.symbol ?? '-'} lines ${p.lineStart}-${p.lineEnd}\n${p.text}`);
  return pieces;
}

const outline = (pieces: readonly ChunkPiece[]) => pieces.map((p) => `${p.symbol ?? '-'} ${p.lineStart}-${p.lineEnd}`);

describe('chunker-code: a TypeScript class', () => {
  const text = sample('shapes.ts');

  it('splits a class larger than the budget into its members, each carrying the class header', async (t) => {
    const pieces = await chunks(t, 'shapes.ts', text, 60);
    assert.deepEqual(outline(pieces), [
      '- 1-5',
      'Rectangle, Rectangle.constructor 7-14',
      'Rectangle.area 16-21',
      'Rectangle.perimeter 23-26',
      'Rectangle.scale 28-32',
      'drawingPath 35-38',
    ]);
    assert.ok(pieces.every((p) => p.lang === 'typescript'));
    const area = pieces.find((p) => p.symbol === 'Rectangle.area')!;
    assert.match(area.text, /^class Rectangle \{\n {2}\/\*\* The area: width times height/);
    // the decorator and the comment above it travel with the method
    assert.match(
      pieces.find((p) => p.symbol === 'Rectangle.scale')!.text,
      /\/\/ Scales both sides[^\n]*\n {2}@logged\n {2}scale\(/,
    );
  });

  it(
    'keeps a class that fits in one chunk, with its doc ' + 'comment; small siblings are merged up to the budget',
    async (t) => {
      assert.deepEqual(outline(await chunks(t, 'shapes.ts', text, 700)), ['Rectangle, drawingPath 1-38']);
      const pieces = await chunks(t, 'shapes.ts', text, 200);
      const rectangle = pieces.find((p) => p.symbol === 'Rectangle')!;
      assert.equal(rectangle.lineStart, 7);
      assert.equal(rectangle.lineEnd, 33);
      assert.match(rectangle.text, /^\/\*\*\n \* A rectangle on the plane/);
    },
  );

  it('never exceeds the budget, and every chunk starts and ends on a token boundary', async (t) => {
    for (const max of [30, 60, 120]) {
      const pieces = await chunks(t, 'shapes.ts', text, max);
      for (const p of pieces) {
        assert.ok(estimateTokens(p.text) <= max, `${estimateTokens(p.text)} tokens over ${max}: ${p.text}`);
        const lines = text
          .split('\n')
          .slice(p.lineStart - 1, p.lineEnd)
          .join('\n');
        assert.ok(/^\s*\S/.test(lines) && /\S$/.test(lines.trimEnd()));
      }
    }
  });
});

describe('chunker-code: a Python module', () => {
  it('gives each method its class header, and keeps docstrings and decorators with their code', async (t) => {
    const pieces = await chunks(t, 'inventory.py', sample('inventory.py'), 60);
    assert.deepEqual(outline(pieces), [
      '- 1-6',
      'Part 9-14',
      'Part.restock 16-20',
      'Part.restock 21-21',
      'Part.take 23-26',
      'load_parts 29-31',
    ]);
    assert.ok(pieces.every((p) => p.lang === 'python'));
    assert.match(pieces[1]!.text, /^@dataclass\nclass Part:\n {4}"""One kind of part/);
    assert.match(
      pieces.find((p) => p.symbol === 'Part.take')!.text,
      /^class Part:\n {4}def take\(self, amount\):\n {8}"""Removes/,
    );
  });
});

const LANGUAGES: [file: string, code: string, symbol: string][] = [
  ['a.js', 'class Box {\n  open() { return 1; }\n}\nconst close = () => 2;\n', 'Box'],
  ['a.tsx', 'export function View(): JSX.Element {\n  return <div>hi</div>;\n}\n', 'View'],
  [
    'a.go',
    'package main\n\ntype Server struct{}\n\nfunc (s *Server) Start() error {\n\treturn nil\n}\n',
    'Server.Start',
  ],
  ['a.rs', 'struct P;\n\nimpl P {\n    fn go(&self) -> u8 {\n        1\n    }\n}\n', 'P'],
  ['A.java', 'class A {\n  int size() {\n    return 1;\n  }\n}\n', 'A'],
  ['a.c', '#include <stdio.h>\n\nint add(int a, int b) {\n  return a + b;\n}\n', 'add'],
  ['a.cpp', 'namespace geo {\nint area(int w, int h) {\n  return w * h;\n}\n}\n', 'geo'],
  ['A.cs', 'class A {\n  public int Size() {\n    return 1;\n  }\n}\n', 'A'],
  ['a.rb', 'class Cart\n  def total\n    1\n  end\nend\n', 'Cart'],
  ['a.php', '<?php\nfunction total($items) {\n  return count($items);\n}\n', 'total'],
];

describe('chunker-code: every language of the table', () => {
  for (const [file, code, symbol] of LANGUAGES)
    it(`${file}: ${languageOf(file)?.name}`, async () => {
      const pieces = await chunkCode(code, languageOf(file)!, { maxTokens: 200, tolerateErrors: false });
      assert.ok(pieces, `${file} did not parse`);
      assert.ok(
        pieces.some((p) => p.symbol?.split(', ').includes(symbol)),
        `${file}: no piece for ${symbol}: ${JSON.stringify(pieces)}`,
      );
    });

  it('splits a large Go method, a Rust impl and a C++ namespace into their members, naming them by path', async () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `x${i} := ${i}`).join('\n\t');
    const go = await chunkCode(
      `package main\n\nfunc (s *Server) Start() error {\n\t${body(60)}\n\treturn nil\n}\n`,
      languageOf('a.go')!,
      { maxTokens: 60, tolerateErrors: false },
    );
    assert.ok(go!.length > 2 && go!.slice(1).every((p) => p.symbol === 'Server.Start'));
    const rust = await chunkCode(
      `impl P {\n${Array.from(
        { length: 8 },
        (_, i) => `    fn f${i}(&self) -> u8 {\n        ${i} + 1 + 2 + 3 + 4\n    }\n`,
      ).join('\n')}}\n`,
      languageOf('a.rs')!,
      { maxTokens: 40, tolerateErrors: false },
    );
    const f3 = rust!.find((p) => p.symbol?.split(', ').includes('P.f3'));
    assert.ok(f3 && f3.symbol !== 'P' && /^impl P \{\n {4}fn f\d/.test(f3.text), JSON.stringify(rust));
  });
});

describe('chunker-code: falling back to the text chunker', () => {
  const doc = (sourceId: string, body: string, metadata: Record<string, unknown> = {}) => ({
    id: 'd',
    source: 'filesystem:kb',
    sourceId,
    title: sourceId,
    body,
    sourceUrl: null,
    contentType: 'text/plain',
    updatedAt: '2026-01-01T00:00:00Z',
    metadata,
  });
  const sizes = { maxTokens: 200, overlapTokens: 0 };
  const broken = 'export function ok() {\n  return 1;\n}\n\nfunction broken( {\n  return [;\n}\n';

  it('a language without a grammar, and a non-code file, are left to the text chunker', async () => {
    assert.equal(await chunkDocument(doc('notes.md', '# Notes\n\nfunction f() {}\n'), sizes), undefined);
    assert.equal(await chunkDocument(doc('build.zig', 'pub fn main() void {}\n'), sizes), undefined);
    assert.equal(await chunkDocument(doc('empty.ts', '  \n'), sizes), undefined);
  });

  it('auto: a file with syntax errors is left to the text chunker; code: chunked from the recovered tree', async () => {
    assert.equal(await chunkDocument(doc('a.ts', broken), sizes), undefined);
    const pieces = await chunkDocument(doc('a.ts', broken, { chunker: 'code' }), sizes);
    assert.ok(pieces && pieces.length > 0 && pieces.every((p) => p.lang === 'typescript'));
  });

  it('chunker = "text": even a clean code file is left to the text chunker', async () => {
    const clean = 'export function ok() {\n  return 1;\n}\n';
    assert.ok(await chunkDocument(doc('a.ts', clean), sizes));
    assert.equal(await chunkDocument(doc('a.ts', clean, { chunker: 'text' }), sizes), undefined);
  });
});
