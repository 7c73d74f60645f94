// `kbctx extension init` end to end: the scaffold's own test passes, and once the printed config entry
// is added, kbctx loads the module: its connector type syncs and its tool is listed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, it } from 'node:test';
import { Workspace } from '../helpers/workspace.ts';

let ws: Workspace;
before(() => (ws = new Workspace('kbctx-ext-init-')));
after(() => ws.cleanup());

it('scaffolds a module whose test passes and which kbctx loads from the printed config entry', async () => {
  const init = await ws.kbctx(['extension', 'init', 'acme', '--json']);
  assert.equal(init.code, 0, init.stderr);
  const out = JSON.parse(init.stdout) as { files: string[]; config_entry: string; test: string };
  assert.deepEqual(out.files, ['extensions/acme.mjs', 'extensions/acme.test.mjs']);
  assert.equal(out.config_entry, '[extensions]\nmodules = ["./extensions/acme.mjs"]\n');

  // Without NODE_TEST_CONTEXT, which would make the child report to this runner instead of printing.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_TEST_CONTEXT'));
  const test = spawnSync(process.execPath, ['--test', '--test-reporter=tap', 'extensions/acme.test.mjs'], {
    cwd: ws.dir,
    encoding: 'utf8',
    env,
  });
  assert.equal(test.status, 0, test.stdout + test.stderr);
  assert.match(test.stdout, /^# pass 3$/m);

  ws.config(`${out.config_entry}\n[connectors.acme.main]\ngreeting = "ahoy"\n`);
  const sync = await ws.syncJson('acme:main');
  assert.deepEqual([sync.code, sync.reports[0]?.upserted], [0, 1]);
  const tools = JSON.parse((await ws.kbctx(['tool', 'list', '--json'])).stdout) as {
    tools: { name: string; builtin: boolean }[];
  };
  assert.deepEqual(
    tools.tools.find((t) => t.name === 'acme'),
    {
      name: 'acme',
      description: 'Describe what this tool does, for the AI agent that will call it.',
      builtin: false,
      parameters: {
        type: 'object',
        properties: { text: { type: 'string', description: 'Some text' } },
        required: ['text'],
      },
    },
  );

  const again = await ws.kbctx(['extension', 'init', 'acme']);
  assert.equal(again.code, 7);
  assert.match(again.stderr, /extensions\/acme\.mjs already exists/);
  assert.equal((await ws.kbctx(['extension', 'init', 'Bad Name'])).code, 2);
});
