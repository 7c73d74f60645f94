// The `[retrieval]` settings unit tests of search and embedding run with (the defaults but smaller candidate lists);
// `cacheSize` is what a test's own cache is made with.
import type { RetrievalConfig } from '../../core/config/types.ts';

export const testRetrieval = (cacheSize = 0): RetrievalConfig => ({
  finalLimit: 10,
  maxLimit: 100,
  hybridAlpha: 0.6,
  candidateKKeyword: 20,
  candidateKVector: 20,
  fusion: 'weighted',
  cacheSize,
});
