// `kbctx plugins` through the real CLI shows what a plugin really provides (ADR 0180), not what it
// declares: a plugin declaring `tool:email_check` whose tool is `email_check4` is listed with the real
// name and a warning; one declaring nothing still shows its connector type and tool.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Workspace } from '../helpers/workspace.ts';
import { joinedRegExp } from '../helpers/joined-regexp.ts';

const ws = new Workspace('kbctx-plugins-provides-');
before(() => {
  ws.write(
    'plugins/mail.mjs',
    `export default { name: 'mail', version: '1.0.0', kbctx: '^0.2', provides: ['tool:email_check'],
  apply(kernel) { kernel.hooks.tools.tap('mail', (tools) => tools.add({ name: 'email_check4',
    description: 'checks mail', call: () => 'ok' })); } };\n`,
  );
  ws.write(
    'plugins/silent.mjs',
    `export default { name: 'silent', version: '1.0.0', kbctx: '^0.2',
  apply(kernel) {
    kernel.hooks.createConnector.for('x').tapPromise('silent', async () => ({ scan: async function* () {} }));
    kernel.hooks.tools.tap('silent', (tools) => tools.add({ name: 'y', description: 'y', call: () => 'y' }));
  } };\n`,
  );
  ws.config(`plugins = ["bundled", "./plugins/mail.mjs", "./plugins/silent.mjs"]\n[db]\npath = "data/index.sqlite"\n`);
});
after(() => ws.cleanup());

type Listed = { plugins: { name: string; provides: string[]; not_provided: string[] }[] };

describe('kbctx plugins: derived provides', () => {
  it(
    '--json lists the real tool and the connector type; the ' + 'declared name that is not provided is a warning',
    async () => {
      const r = await ws.kbctx(['plugins', '--json']);
      assert.equal(r.code, 0, r.stderr);
      const plugins = (JSON.parse(r.stdout) as Listed).plugins;
      const mail = plugins.find((p) => p.name === 'mail')!;
      assert.deepEqual([mail.provides, mail.not_provided], [['tool:email_check4'], ['tool:email_check']]);
      assert.deepEqual(plugins.find((p) => p.name === 'silent')!.provides, ['connector:x', 'tool:y']);
      assert.match(
        r.stderr,
        joinedRegExp(
          /^warning: plugin 'mail' declares 'tool:email_check' in provides /,
          /but does not provide it \(it provides tool:email_check4\)$/m,
        ),
      );
      assert.ok(plugins.find((p) => p.name === 'tools-builtin')!.provides.includes('tool:search'));
    },
  );

  it("the cli plugin's commands are derived from its `commands` taps, as every plugin's (ADR 0190)", async () => {
    const r = await ws.kbctx(['plugins', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const cli = (JSON.parse(r.stdout) as Listed).plugins.find((p) => p.name === 'cli')!;
    const commands = ['init', 'sync', 'embed', 'start', 'serve', 'completions', 'connector', 'tool', 'agent'];
    assert.deepEqual(
      cli.provides,
      [...commands, 'doctor', 'plugins', 'config'].map((c) => `command:${c}`),
    );
    assert.deepEqual(cli.not_provided, []);
  });

  it('the table shows the derived list', async () => {
    const r = await ws.kbctx(['plugins']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^mail +1\.0\.0 +path +[\d.]+ +tool:email_check4$/m);
    assert.match(r.stdout, /^silent +1\.0\.0 +path +[\d.]+ +connector:x, tool:y$/m);
  });
});
