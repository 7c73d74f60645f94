// `npm run eval`'s gate: a drop of more than max_drop below the committed figure fails; less, or a gain, passes.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { baselineProblem, loadBaseline } from './baseline.ts';

it('fails only when keyword nDCG@10 drops by more than 0.005 from the committed figure', () => {
  const { scifact_train, max_drop } = loadBaseline();
  const committed = scifact_train.keyword.ndcg_at_10;
  assert.equal(committed, 0.7061);
  assert.equal(max_drop, 0.005);
  assert.equal(baselineProblem(0.7061, committed, max_drop), null);
  assert.equal(baselineProblem(0.7011, committed, max_drop), null, 'exactly 0.005 below passes');
  assert.equal(baselineProblem(0.75, committed, max_drop), null);
  assert.match(baselineProblem(0.701, committed, max_drop) ?? '', /0\.7010 is 0\.0051 below the committed 0\.7061/);
});
