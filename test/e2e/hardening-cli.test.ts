// The real CLI against hostile or awkward use (issue 10): `kbctx export | head` ends quietly with
// exit 0, `tool test --param` with absurd nesting is a usage error, and Lua `env.get` sees only the
// variables the operator allowed.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, it } from 'node:test';
import { KBCTX_BIN, Workspace } from '../helpers/workspace.ts';

let ws: Workspace;
before(async () => {
  ws = new Workspace('kbctx-hard-cli-');
  const paragraph = 'Foxes and tea and write-ahead logs. '.repeat(60);
  for (let i = 0; i < 300; i++) ws.write(`docs/d${i}.md`, `# Doc ${i}\n\n${paragraph}\n`);
  ws.write(
    'tools/peek.lua',
    `tool = { description = "Reads env", parameters = { { name = "x", type = "string" } } }
function tool.execute(p) return { allowed = env.get("KBCTX_T_ALLOWED"), referenced = env.get("KBCTX_T_REF"),
  secret = env.get("KBCTX_T_SECRET") } end`,
  );
  ws.config(
    `[connectors.filesystem.docs]\nroot = "docs"\n\n[tools.script.peek]\npath = "tools/peek.lua"\nlabel = ` +
      `"\${KBCTX_T_REF}"\n\n[scripts]\nenv_allow = ["KBCTX_T_ALLOWED"]\n`,
  );
  const sync = await ws.kbctx(['sync', 'all'], { env: { KBCTX_T_REF: 'r' } });
  assert.equal(sync.code, 0, sync.stderr);
});
after(() => ws.cleanup());

it('kbctx export into a reader that closes early exits 0 without a stack trace', async () => {
  const child = spawn(process.execPath, [KBCTX_BIN, 'export'], {
    cwd: ws.dir,
    env: { ...process.env, KBCTX_CONFIG: '', KBCTX_T_REF: 'r' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  // Like `| head -c 100`: read the first bytes, then close the pipe while export is still writing.
  const first = await new Promise<string>((resolve) =>
    child.stdout.once('data', (d: Buffer) => resolve(d.toString('utf8'))),
  );
  child.stdout.destroy();
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.match(first, /^\{\n {2}"documents": \[/);
  assert.equal(code, 0, stderr);
  assert.equal(stderr, '');
});

it('kbctx export --output writes the whole index as JSON', async () => {
  const r = await ws.kbctx(['export', '--output', 'out.json', '--json'], { env: { KBCTX_T_REF: 'r' } });
  assert.equal(r.code, 0, r.stderr);
  assert.equal((JSON.parse(r.stdout) as { documents: number }).documents, 300);
});

it('tool test --param with 5,000 levels of nesting is a usage error, not a stack overflow', async () => {
  const r = await ws.kbctx(
    ['tool', 'test', 'tools/peek.lua', '--param', `extra=${'['.repeat(5000)}1${']'.repeat(5000)}`],
    { env: { KBCTX_T_REF: 'r' } },
  );
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /nested more than 32 levels/);
  assert.doesNotMatch(r.stderr, /call stack|\n\s+at /);
});

it('env.get reads env_allow and ${VAR}-referenced variables only', async () => {
  const env = { KBCTX_T_ALLOWED: 'a', KBCTX_T_REF: 'r', KBCTX_T_SECRET: 's' };
  const r = await ws.kbctx(['tool', 'test', 'tools/peek.lua', '--source', 'peek', '--json'], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual((JSON.parse(r.stdout) as { result: unknown }).result, { allowed: 'a', referenced: 'r' });
});
