import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeQuery } from '../../../core/search/analyze-query.ts';
import { makeSnippet } from '../../../core/search/snippet.ts';

const stems = (q: string): Set<string> => new Set(analyzeQuery(q).map((t) => t.stem));
const filler = (n: number): string => Array.from({ length: n }, (_, i) => `filler${i}`).join(' ');

describe('makeSnippet', () => {
  it('returns short text whole', () => {
    assert.equal(makeSnippet('Short  text\nhere.', stems('text')), 'Short text here.');
  });

  it('centres on the densest cluster of query words, stem-aware', () => {
    const text = `${filler(60)} the signing keys are rotated monthly ${filler(60)} key ${filler(40)}`;
    const s = makeSnippet(text, stems('rotating signing key'));
    assert.match(s, /signing keys are rotated monthly/);
    assert.ok(s.startsWith('…') && s.endsWith('…'));
    assert.ok(s.length <= 242);
  });

  it('finds words whose stem differs from their spelling (happiness → happi)', () => {
    const text = `${filler(80)} great happiness ${filler(80)}`;
    assert.match(makeSnippet(text, stems('happy')), /happiness/);
  });

  it('falls back to the start when nothing matches', () => {
    const s = makeSnippet(filler(100), stems('absent'));
    assert.ok(s.startsWith('filler0 '));
  });
});
