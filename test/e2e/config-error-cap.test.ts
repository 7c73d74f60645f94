// A config error echoes what the user wrote (a key, a plugin name), capped as log lines are (issue 29):
// a 3 MB key is cut after MAX_LOG_LINE characters with how many more there were, in text and JSON.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { MAX_LOG_LINE } from '../../core/domain/log-line.ts';
import { runKbctx, Workspace } from '../helpers/workspace.ts';

const KEY = 'k'.repeat(3_000_000);
let ws: Workspace;
before(() => {
  ws = new Workspace();
  ws.write('kbctx.toml', `[db]\npath = "data/kb.sqlite"\n[retrieval]\n${KEY} = 1\n`);
  ws.write('plugin.toml', `plugins = ["bundled", "${KEY}"]\n[db]\npath = "data/kb.sqlite"\n`);
});
after(() => ws.cleanup());

it('a 3 MB unknown key: exit 3, the message names the key cut after MAX_LOG_LINE characters', async () => {
  const text = await runKbctx(['-c', 'kbctx.toml', 'stats'], { cwd: ws.dir });
  assert.equal(text.code, 3, text.stderr.slice(0, 300));
  assert.ok(text.stderr.length < MAX_LOG_LINE + 200, `stderr is ${text.stderr.length} characters`);
  assert.match(text.stderr, /^error: .*kbctx\.toml: retrieval\.k+… \(\d+ more characters\)\n$/);
  const json = await runKbctx(['-c', 'kbctx.toml', '--json', 'stats'], { cwd: ws.dir });
  assert.equal(json.code, 3);
  const { error } = JSON.parse(json.stderr) as { error: { code: string; message: string } };
  assert.equal(error.code, 'config_error');
  assert.ok(error.message.length <= MAX_LOG_LINE + 40, `message is ${error.message.length} characters`);
});

it('a 3 MB plugin entry is cut the same way', async () => {
  const r = await runKbctx(['-c', 'plugin.toml', 'stats'], { cwd: ws.dir });
  assert.notEqual(r.code, 0);
  assert.ok(r.stderr.length < MAX_LOG_LINE + 200, `stderr is ${r.stderr.length} characters`);
  assert.match(r.stderr, /more characters\)/);
});
