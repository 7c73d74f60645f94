import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chunkText, estimateTokens } from '../../../plugins/chunker-default/chunker.ts';

const para = (n: number, word: string): string => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ') + '.';

describe('chunkText', () => {
  it('keeps a short text in one chunk', () => {
    assert.deepEqual(chunkText('Hello world.\n\nSecond paragraph.', { maxTokens: 100, overlapTokens: 10 }), [
      'Hello world.\n\nSecond paragraph.',
    ]);
  });

  it('never exceeds max_tokens and splits at paragraph boundaries', () => {
    const text = [para(40, 'alpha'), para(40, 'beta'), para(40, 'gamma'), para(40, 'delta')].join('\n\n');
    const chunks = chunkText(text, { maxTokens: 120, overlapTokens: 0 });
    assert.ok(chunks.length >= 3, `expected several chunks, got ${chunks.length}`);
    for (const c of chunks) assert.ok(estimateTokens(c) <= 120, `chunk of ${estimateTokens(c)} tokens`);
    assert.ok(chunks[0]!.startsWith('alpha0 '));
    assert.ok(
      chunks.every((c) => !/\w$/.test(c.split('\n\n')[0]!) || c.includes('.')),
      'paragraphs are kept whole',
    );
  });

  it('overlaps: each chunk starts with the tail of the previous one', () => {
    const text = [para(60, 'one'), para(60, 'two'), para(60, 'three')].join('\n\n');
    const chunks = chunkText(text, { maxTokens: 150, overlapTokens: 20 });
    assert.ok(chunks.length >= 2);
    for (let i = 1; i < chunks.length; i++) {
      const prevTail = chunks[i - 1]!.slice(-40).split(' ').slice(1).join(' ');
      assert.ok(
        chunks[i]!.startsWith(prevTail.slice(0, 20)) || chunks[i]!.includes(prevTail),
        `chunk ${i} does not start with the previous tail`,
      );
      assert.ok(estimateTokens(chunks[i]!) <= 150 + 2);
    }
  });

  it('keeps a fenced code block with blank lines in one piece', () => {
    const code = '```js\nconst a = 1;\n\nconst b = 2;\n```';
    const chunks = chunkText(`Intro text.\n\n${code}\n\nOutro.`, { maxTokens: 200, overlapTokens: 0 });
    assert.equal(chunks.length, 1);
    assert.ok(chunks[0]!.includes(code));
  });

  it('starts a new chunk at a heading once the current chunk is half full', () => {
    const text = `# One\n\n${para(120, 'a')}\n\n# Two\n\n${para(10, 'b')}`;
    const chunks = chunkText(text, { maxTokens: 200, overlapTokens: 0 });
    assert.equal(chunks.length, 2);
    assert.ok(chunks[1]!.startsWith('# Two'));
  });

  it('splits one huge paragraph at sentence ends', () => {
    const sentences = Array.from({ length: 50 }, (_, i) => `Sentence number ${i} is here`).join('. ') + '.';
    const chunks = chunkText(sentences, { maxTokens: 50, overlapTokens: 0 });
    assert.ok(chunks.length > 3);
    for (const c of chunks.slice(0, -1)) assert.ok(c.endsWith('.'), `chunk should end at a sentence: ${c.slice(-20)}`);
  });

  it('is deterministic', () => {
    const text = [para(80, 'x'), para(80, 'y')].join('\n\n');
    assert.deepEqual(
      chunkText(text, { maxTokens: 100, overlapTokens: 10 }),
      chunkText(text, { maxTokens: 100, overlapTokens: 10 }),
    );
  });
});
