// A child process for postings-table.test.ts: writes the batches of postingsBatches() one commit each
// (merging every third), printing `commit <version>` after each, until it is killed.
import { loadLance } from '../../../plugins/store-lancedb/lance-module.ts';
import { openPostingsTable } from '../../../plugins/store-lancedb/postings-table.ts';
import { postingsBatches } from './postings-fixture.ts';

const lance = await loadLance();
const table = await openPostingsTable(
  await lance.lancedb.connect(process.argv[2]!, { readConsistencyInterval: 0 }),
  lance,
);
for (const [i, change] of postingsBatches().entries()) {
  await table.apply(change, i + 1);
  process.stdout.write(`commit ${i + 1}\n`);
  if (i % 3 === 2) await table.merge();
}
