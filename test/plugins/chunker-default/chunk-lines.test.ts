// chunker-default's chunk pieces carry the exact body lines: checked against the body itself (every piece's text is
// found, whitespace aside, between its lines), with front matter (Markdown keeps the file's numbering), CRLF and
// overlap.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chunkPieces, chunkText } from '../../../plugins/chunker-default/chunker.ts';
import { extractMarkdown } from '../../../plugins/extract-text/markdown.ts';
import { locateChunks } from '../../../core/domain/line-ranges.ts';
import { sliceLines } from '../../../plugins/tools-builtin/documents.ts';
import type { ChunkPiece } from '../../../core/api/plugin.ts';

const squeeze = (s: string): string => s.replace(/\s+/g, '');

/**
 * Every piece's text lies within its lines, its first and last lines hold its first and last words, and the lines
 * agree with locating the text in the body.
 */
function assertExact(body: string, pieces: readonly ChunkPiece[]): void {
  const located = locateChunks(
    body,
    pieces.map((p) => p.text),
  );
  pieces.forEach((p, i) => {
    assert.ok(
      squeeze(sliceLines(body, { start: p.lineStart, end: p.lineEnd })).includes(squeeze(p.text)),
      `piece ${i}`,
    );
    const words = p.text.split(/\s+/);
    assert.ok(sliceLines(body, { start: p.lineStart, end: p.lineStart }).includes(words[0]!), `piece ${i} first line`);
    assert.ok(sliceLines(body, { start: p.lineEnd, end: p.lineEnd }).includes(words.at(-1)!), `piece ${i} last line`);
    assert.deepEqual(located[i], { lineStart: p.lineStart, lineEnd: p.lineEnd }, `piece ${i}`);
  });
}

const para = (n: number, word: string): string => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ') + '.';

describe('chunkPieces lines', () => {
  it('Markdown with front matter: lines are the file lines (the front matter stays as empty lines)', async () => {
    const file =
      '---\ntitle: T\ntags: [a]\n---\n# Heading\n\nFirst paragraph.\n\n```js\nconst x = 1;\n\nx();\n```\n\nLast.';
    const { body } = await extractMarkdown(file);
    assert.equal(body.split('\n').length, file.split('\n').length);
    const pieces = chunkPieces(body, { maxTokens: 8, overlapTokens: 0 });
    assert.deepEqual(
      pieces.map((p) => [p.lineStart, p.lineEnd]),
      [
        [5, 7],
        [9, 13],
        [15, 15],
      ],
    );
    assertExact(body, pieces);
  });

  it('CRLF bodies count one line per \\r\\n', () => {
    const body = ['# A', '', para(30, 'alpha'), '', '', para(30, 'beta'), 'tail line'].join('\r\n');
    const pieces = chunkPieces(body, { maxTokens: 60, overlapTokens: 0 });
    assert.deepEqual(pieces.at(-1)?.lineEnd, 7);
    assertExact(body, pieces);
  });

  it('with overlap a piece starts at the line its overlap comes from; long paragraphs split inside a line', () => {
    const body = [para(60, 'a'), '', para(60, 'b'), para(60, 'c'), '', '# H', para(200, 'd')].join('\n');
    const pieces = chunkPieces(body, { maxTokens: 80, overlapTokens: 20 });
    assert.ok(pieces.length > 4);
    assertExact(body, pieces);
    assert.ok(
      pieces.slice(1).some((p, i) => p.lineStart <= pieces[i]!.lineEnd),
      'some piece starts on a line of the one before (its overlap)',
    );
  });

  it('chunkText is the pieces’ texts', () => {
    const body = [para(60, 'a'), '', para(60, 'b')].join('\n');
    const sizes = { maxTokens: 50, overlapTokens: 10 };
    assert.deepEqual(
      chunkText(body, sizes),
      chunkPieces(body, sizes).map((p) => p.text),
    );
  });
});
