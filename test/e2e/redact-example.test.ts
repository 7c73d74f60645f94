// The example plugin of docs/plugins.md, in TypeScript (examples/plugins/redact.ts, a plugin object in
// the library's config) and in Lua (examples/plugins/redact.lua, a path), tested the way that page
// tells a plugin author to: openKbctx on a temp folder, sync, search, get. Both behave the same.
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { openKbctx } from '../../registry/index.ts';
import redact from '../../examples/plugins/redact.ts';
import { REPO_ROOT, Workspace } from '../helpers/workspace.ts';

const ws = new Workspace('kbctx-redact-example-');
before(() => {
  ws.write('docs/vault.md', '# The vault\n\nThe secret is in the vault. The vault is locked.\n');
  ws.write('docs/urgent.md', '# Urgent: vault audit\n\nAudit the vault.\n');
  copyFileSync(`${REPO_ROOT}examples/plugins/redact.lua`, ws.path('redact.lua'));
});
after(() => ws.cleanup());

for (const [label, entry] of [
  ['TypeScript', redact],
  ['Lua', './redact.lua'],
] as const) {
  describe(`the docs/plugins.md example in ${label}`, () => {
    it('redacts the word at sync and ranks the boosted title first', async () => {
      const kb = await openKbctx({
        cwd: ws.dir,
        config: {
          plugins: ['bundled', entry],
          plugin: { redact: { word: 'secret' } },
          db: { path: `${label}.sqlite` },
          connectors: { filesystem: { docs: { root: 'docs' } } },
        },
      });
      try {
        await kb.sync('all');
        const { results } = await kb.search({ query: 'vault' });
        assert.deepEqual(
          results.map((r) => r.title),
          ['Urgent: vault audit', 'The vault'],
        );
        const doc = await kb.get(results[1]!.id);
        assert.match(doc.body, /The \[redacted\] is in the vault/);
      } finally {
        await kb.close();
      }
    });
  });
}
