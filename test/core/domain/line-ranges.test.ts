import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lineStarts, locateChunks } from '../../../core/domain/line-ranges.ts';
import { parseLineRange, sliceLines } from '../../../plugins/tools-builtin/documents.ts';

describe('locateChunks (lines of a chunker that returns plain strings)', () => {
  it('finds chunks whose whitespace the chunker changed, in reading order', () => {
    const body = 'Title\n\n\n  first   paragraph\nwraps here\n\nsecond one\n';
    assert.deepEqual(locateChunks(body, ['Title', 'first paragraph wraps here', 'second one']), [
      { lineStart: 1, lineEnd: 1 },
      { lineStart: 4, lineEnd: 5 },
      { lineStart: 7, lineEnd: 7 },
    ]);
  });

  it('counts \\r\\n and a lone \\r as one line end each', () => {
    assert.deepEqual(locateChunks('a\r\nb\r\n\r\nc\rd', ['b', 'c d']), [
      { lineStart: 2, lineEnd: 2 },
      { lineStart: 4, lineEnd: 5 },
    ]);
  });

  it('finds an overlapping chunk (it starts inside the previous one) and repeated text in order', () => {
    const body = 'one two\nthree four\nfive six\nthree four\n';
    assert.deepEqual(locateChunks(body, ['one two three four', 'three four five six', 'three four']), [
      { lineStart: 1, lineEnd: 2 },
      { lineStart: 2, lineEnd: 3 },
      { lineStart: 4, lineEnd: 4 },
    ]);
  });

  it(
    'gives null lines to a chunk that is not in the body (a ' + 'rewriting chunker), and the next ones still resolve',
    () => {
      assert.deepEqual(locateChunks('alpha\nbeta\n', ['ALPHA!', '', 'beta']), [
        { lineStart: null, lineEnd: null },
        { lineStart: null, lineEnd: null },
        { lineStart: 2, lineEnd: 2 },
      ]);
    },
  );

  it('falls back to searching the whole body when the chunks come out of order', () => {
    assert.deepEqual(locateChunks('x\ny\nz', ['z', 'x']), [
      { lineStart: 3, lineEnd: 3 },
      { lineStart: 1, lineEnd: 1 },
    ]);
  });
});

describe('line ranges', () => {
  it('lineStarts: the offset of each line', () => {
    assert.deepEqual(lineStarts('a\nbc\r\nd\re'), [0, 2, 6, 8]);
  });

  it('parseLineRange takes `12-48` and `7`; rejects zero, reversed and junk', () => {
    assert.deepEqual(parseLineRange('12-48'), { start: 12, end: 48 });
    assert.deepEqual(parseLineRange(' 7 '), { start: 7, end: 7 });
    for (const bad of ['0-3', '5-2', 'a-b', '1-', '-4', '1-2-3', '', '1.5'])
      assert.equal(parseLineRange(bad), undefined, bad);
  });

  it('sliceLines returns the lines with their own line ends, and what exists past the end', () => {
    const text = 'l1\r\nl2\nl3\rl4\n';
    assert.equal(sliceLines(text, { start: 2, end: 3 }), 'l2\nl3');
    assert.equal(sliceLines(text, { start: 1, end: 1 }), 'l1');
    assert.equal(sliceLines(text, { start: 4, end: 99 }), 'l4');
    assert.equal(sliceLines(text, { start: 9, end: 12 }), '');
  });
});
