// A burst of files synced by the live index while the bundled local model embeds them: once the
// sync's log line says it finished, every file of the burst is found by keyword search at once
// (issue 29, item 15). The model computed batches on the server's event loop, so searches waited
// for the batch under way (seconds for a burst): now it runs in a worker thread.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { spawnLiveServer } from '../helpers/live-server.ts';
import { Workspace } from '../helpers/workspace.ts';

const FILES = 100;
const ws = new Workspace('kbctx-live-burst-');
const EMBEDDED = /embed: (\d+) chunk\(s\) with local:use-lite/g;
const SYNCED = /sync filesystem:docs \(watch\): fetched \d+, upserted (\d+),/g;

/** The sum of the first group of every match of `pattern` in `log`. */
const total = (log: string, pattern: RegExp): number =>
  [...log.matchAll(pattern)].reduce((n, m) => n + Number(m[1]), 0);

// A unique made-up word per file, so each search finds exactly one document.
const word = (i: number): string => `zq${i.toString(36)}burst`;

before(() => {
  ws.write('docs/seed.md', '# Seed\n\nThe first note.\n');
  // One batch for the whole burst: the longest stretch a model on the event loop would hold it.
  ws.config(
    `[embedding]\nprovider = "local"\nbatch_size = 128\n\n` +
      `[connectors.filesystem.docs]\nroot = "docs"\n\n[sync]\ninterval = "off"\n`,
  );
});
after(() => ws.cleanup());

it(
  'makes every file of a burst keyword-searchable as soon as ' + 'its sync has finished, while the embedder works',
  async () => {
    const server = await spawnLiveServer(ws);
    try {
      await server.waitForLog(/embed: 1 chunk\(s\) with local:use-lite/); // the seed: the model is loaded
      const from = server.log().length;
      for (let i = 0; i < FILES; i++)
        ws.write(`docs/burst-${i}.md`, `# Burst ${i}\n\nThis note mentions ${word(i)} once.\n`);
      // The watcher may deliver the burst in more than one batch: wait until the syncs have written all of it.
      while (total(server.log().slice(from), SYNCED) < FILES)
        await server.waitForLog(new RegExp(SYNCED.source), { from: server.log().length, timeoutMs: 60_000 });
      const missing: number[] = [];
      let answeredDuringEmbedding = 0;
      for (let i = 0; i < FILES; i++) {
        const hits = await keyword(server.url, word(i));
        if (hits[0] !== `burst-${i}.md`) missing.push(i);
        if (total(server.log().slice(from), EMBEDDED) < FILES) answeredDuringEmbedding++;
      }
      assert.deepEqual(missing, [], 'every file of the finished sync is found');
      // Ordering, not speed: the burst's batch takes the model far longer than one search, so a search sent right after
      // the syncs finished is answered before the burst's vectors are written, unless it waited for them.
      assert.ok(
        answeredDuringEmbedding > 0,
        `no search was answered while the burst was embedded; log:\n${server.log().slice(from)}`,
      );
    } finally {
      await server.stop();
    }
  },
);

async function keyword(url: string, query: string): Promise<string[]> {
  const res = await fetch(`${url}/tools/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, mode: 'keyword', limit: 3 }),
  });
  assert.equal(res.status, 200);
  return ((await res.json()) as { results: { source_id: string }[] }).results.map((r) => r.source_id);
}
