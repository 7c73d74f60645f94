// The server's policy for errors no one caught (ADR 0142), in a real process: a plugin's uncaught
// exception and unhandled rejection are logged naming it and survived; an unhandled rejection from
// elsewhere is logged and survived; an uncaught exception from elsewhere is logged and ends it with 1.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Workspace } from '../../helpers/workspace.ts';

const CHILD = fileURLToPath(new URL('../../fixtures/serve-faults-child.ts', import.meta.url));
let ws: Workspace;
let entry: string;

before(() => {
  ws = new Workspace('kbctx-faults-unit-');
  entry = ws.write('acme/index.mjs', "export { misbehave } from './timers.mjs';\n");
  ws.write(
    'acme/timers.mjs',
    `export function misbehave() {
  setTimeout(() => { throw new Error('timer boom'); }, 10);
  void Promise.reject(new Error('floating'));
}
`,
  );
});
after(() => ws.cleanup());

const run = (scenario: string) =>
  spawnSync(process.execPath, [CHILD, entry, scenario], { encoding: 'utf8', timeout: 20_000 });

describe('serve fault policy', () => {
  it("a plugin's uncaught exception and unhandled rejection: logged naming it, the process goes on", () => {
    const r = run('plugin');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'alive\n');
    assert.match(
      r.stderr,
      /^plugin 'acme' failed outside a hook \(unhandled rejection\), still serving: Error: floating\n.*timers\.mjs/m,
    );
    assert.match(
      r.stderr,
      /^plugin 'acme' failed outside a hook \(uncaught exception\), still serving: Error: timer boom\n.*timers\.mjs/m,
    );
  });

  it(
    'an unhandled rejection from elsewhere is logged and survived; ' +
      'an uncaught exception from elsewhere ends the process with 1',
    () => {
      const r = run('elsewhere');
      assert.equal(r.status, 1, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(
        r.stderr,
        /^unhandled rejection \(not from a plugin\), still serving: a non-error value: "no error at all"$/m,
      );
      assert.match(r.stderr, /^uncaught exception \(not from a plugin\), stopping: Error: a bug outside any plugin/m);
    },
  );
});
