// The `chunk` hook's result shape: strings, ChunkPieces (camelCase or a Lua table's snake_case), nothing else.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RESULT_SHAPES } from '../../core/tap-contracts.ts';

const wrong = (v: unknown): string | undefined => RESULT_SHAPES.chunk!.wrong(v);

describe('chunk result shape', () => {
  it('takes strings, pieces, snake_case pieces, a mix, and undefined', () => {
    for (const ok of [
      undefined,
      ['a', 'b'],
      [{ text: 'a', lineStart: 1, lineEnd: 3, symbol: 'A.b', lang: 'typescript' }],
      [{ text: 'a', line_start: 2, line_end: 2 }],
      ['a', { text: 'b', lineStart: 4, lineEnd: 4 }],
    ])
      assert.equal(wrong(ok), undefined, JSON.stringify(ok));
  });

  it('names the item and field that is wrong', () => {
    assert.equal(
      wrong([{ text: 'a', lineStart: 0, lineEnd: 1 }]),
      'a list whose item 0 is an object whose lineStart is a number (0)',
    );
    assert.equal(
      wrong(['x', { text: 'a', lineStart: 5, lineEnd: 4 }]),
      'a list whose item 1 is an object whose lineEnd is a number (4)',
    );
    assert.equal(
      wrong([{ text: 'a', lineStart: 1.5, lineEnd: 2 }]),
      'a list whose item 0 is an object whose lineStart is a number (1.5)',
    );
    assert.equal(wrong([{ text: 'a' }]), 'a list whose item 0 is an object whose lineStart is undefined');
    assert.equal(
      wrong([{ text: 3, lineStart: 1, lineEnd: 1 }]),
      'a list whose item 0 is an object whose text is a number (3)',
    );
    assert.equal(
      wrong([{ text: 'a', lineStart: 1, lineEnd: 1, symbol: 7 }]),
      'a list whose item 0 is an object whose symbol is a number (7)',
    );
    assert.equal(wrong('abc'), 'a string ("abc")');
  });
});
