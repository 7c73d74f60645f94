// "Did you mean": the nearest known name within a typo's reach.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { closestName, didYouMean, editDistance } from '../../../core/domain/closest-name.ts';

describe('closestName', () => {
  it('counts a swap of neighbours as one edit', () => {
    assert.equal(editDistance('documnet', 'document'), 1);
    assert.equal(editDistance('', 'abc'), 3);
    assert.equal(editDistance('rank', 'rank'), 0);
  });

  it('suggests the nearest name, ignoring case, and nothing beyond a typo', () => {
    const hooks = ['document', 'chunk', 'query', 'rank', 'toolResult'];
    assert.equal(closestName('documnet', hooks), 'document');
    assert.equal(closestName('toolresult', hooks), 'toolResult');
    assert.equal(closestName('qeury', hooks), 'query');
    assert.equal(closestName('index', hooks), undefined);
    assert.equal(didYouMean('rnak', hooks), "; did you mean 'rank'?");
    assert.equal(didYouMean('xy', hooks), '');
  });
});
