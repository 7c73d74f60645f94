// The analysed terms a chunk row stores (ADR 0228): read back as the analysis made them, and terms of
// another analysis (or none) are not used, so the chunk is analysed again.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { decodeRowTerms, encodeRowTerms, rowTerms } from '../../../plugins/store-lancedb/keyword-index.ts';

it('stored terms decode to the analysis of the chunk: stems, weighted frequencies (title twice) and length', () => {
  const analysed = rowTerms('Running fast', 'runners ran; running 東京タワー');
  const decoded = decodeRowTerms(encodeRowTerms(analysed));
  assert.deepEqual(decoded, analysed);
  assert.ok((decoded?.terms.get('run') ?? 0) >= 3, 'the title counts more than the text');
});

it('terms of another analysis, or none, decode to undefined', () => {
  assert.equal(decodeRowTerms(null), undefined);
  assert.equal(decodeRowTerms('a0\t3\trun\t2'), undefined);
  assert.equal(decodeRowTerms('3\trun\t2'), undefined);
});
