import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeQuery } from '../../../core/search/analyze-query.ts';
import { segmentCjk } from '../../../core/search/segment-cjk.ts';

const words = (text: string): string[] => segmentCjk(text).trim().split(/\s+/);

describe('segmentCjk', () => {
  it('leaves text without CJK untouched', () => {
    const text = 'The quick brown fox — naïve café, 42 ways.';
    assert.equal(segmentCjk(text), text);
  });

  it('cuts Japanese and Chinese runs into dictionary words', () => {
    assert.ok(words('東京オフィスのカフェは抹茶ラテを提供します').includes('抹茶'));
    assert.ok(words('東京オフィスのカフェは抹茶ラテを提供します').includes('東京'));
    assert.ok(words('我们的办公室提供抹茶拿铁和咖啡').includes('咖啡'));
  });

  it('adds Hangul bigrams to Korean words so a stem without its particle matches', () => {
    const w = words('서울에서 회의가 있습니다');
    assert.ok(w.includes('서울에서') && w.includes('서울') && w.includes('회의'));
  });

  it('keeps Latin words of mixed-script text apart from the CJK ones', () => {
    assert.deepEqual(words('Node.js用の設定'), ['Node.js', '用', 'の', '設定']);
  });

  it('query analysis produces the same words', () => {
    assert.deepEqual(
      analyzeQuery('抹茶').map((t) => t.token),
      ['抹茶'],
    );
    assert.ok(analyzeQuery('抹茶ラテ').some((t) => t.token === '抹茶'));
    // Voiced kana and Hangul syllables are not folded (FTS5 indexes them as they are).
    assert.deepEqual(
      analyzeQuery('ガイド').map((t) => t.token),
      ['ガイド'],
    );
    assert.ok(analyzeQuery('서울').some((t) => t.token === '서울'));
  });
});
