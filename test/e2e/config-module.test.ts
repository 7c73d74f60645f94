// Config as code end to end (ADR 0128): a project whose config/kbctx.config.mjs lists a plugin object
// (made with definePlugin) beside the bundled set, through the real CLI (bin/kbctx.js), a real REST
// server and the library; the lookup from another folder; modules that fail, with exit 3.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { createHttpHandler, openKbctx } from '../../registry/index.ts';
import { spawnServer, type KbctxServer } from '../helpers/kbctx-server.ts';
import { REPO_ROOT, runKbctx, Workspace } from '../helpers/workspace.ts';
import { joinedRegExp } from '../helpers/joined-regexp.ts';

const CORE = JSON.stringify(pathToFileURL(path.join(REPO_ROOT, 'core/index.ts')).href);
const MODULE = `import { definePlugin } from ${CORE};

const greeter = definePlugin({
  name: 'greeter',
  version: '1.0.0',
  kbctx: '^0.2',
  provides: ['tool:greet'],
  optionsSchema: { type: 'object', properties: { greeting: { type: 'string' } }, additionalProperties: false },
  apply(kernel, options) {
    kernel.hooks.tools.tap('greeter', (tools) =>
      tools.add({
        name: 'greet',
        description: 'Greets someone',
        inputSchema: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
        call: async (params) => ({ text: \`\${options.greeting ?? 'hello'}, \${params.who}\` }),
      }),
    );
  },
});

export default ({ env }) => ({
  plugins: ['bundled', greeter],
  plugin: { greeter: { greeting: env.GREETING ?? 'hi' } },
  db: { path: 'data/kb.sqlite' },
  connectors: { filesystem: { docs: { root: 'docs' } } },
});
`;

let ws: Workspace;
const cli = (args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) =>
  runKbctx(args, { cwd: options.cwd ?? ws.dir, env: options.env ?? {} });

before(async () => {
  ws = new Workspace('kbctx-config-module-');
  ws.write('docs/rotation.md', '# Key rotation\n\nRotate the signing keys every 90 days.\n');
  ws.write('config/kbctx.config.mjs', MODULE);
  ws.write('elsewhere/.keep', '');
  const sync = await cli(['sync', 'all']);
  assert.equal(sync.code, 0, sync.stderr);
});
after(() => ws.cleanup());

describe('kbctx.config.mjs through the CLI', () => {
  it('is the config in use: --help, doctor and kbctx plugins say so', async () => {
    const help = await cli(['--help']);
    assert.match(
      help.stdout,
      new RegExp(
        `Config in use: ${ws.path('config/kbctx.config.mjs').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} ` +
          `\\(\\./config/kbctx\\.config\\.mjs\\)`,
      ),
    );
    const doctor = await cli(['doctor']);
    assert.match(
      doctor.stdout,
      /ok +config +\S+config\/kbctx\.config\.mjs loaded \(config as code; keys and types valid\)/,
    );
    assert.match(doctor.stdout, /greeter 1\.0\.0/);
    const plugins = JSON.parse((await cli(['plugins', '--json'])).stdout) as {
      plugins: { name: string; origin: string; from: string; hooks: string[]; provides: string[] }[];
    };
    const greeter = plugins.plugins.find((p) => p.name === 'greeter');
    assert.deepEqual(
      [greeter?.origin, greeter?.from, greeter?.hooks, greeter?.provides],
      ['config', 'kbctx.config.mjs plugins[1]', ['tools'], ['tool:greet']],
    );
  });

  it('the inline plugin adds a tool; its options come from the module; search finds the synced docs', async () => {
    const called = await cli(['tool', 'call', 'greet', '--param', 'who=Ada', '--json'], {
      env: { GREETING: 'welcome' },
    });
    assert.equal(called.code, 0, called.stderr);
    assert.deepEqual(JSON.parse(called.stdout), { result: { text: 'welcome, Ada' } });
    const found = await cli(['search', 'signing keys', '--json']);
    assert.deepEqual(
      (JSON.parse(found.stdout) as { results: { title: string }[] }).results.map((r) => r.title),
      ['Key rotation'],
    );
  });

  it('from another folder, -c and $KBCTX_CONFIG open the same index (paths relative to the project)', async () => {
    const elsewhere = ws.path('elsewhere');
    for (const [args, env] of [
      [['-c', '../config/kbctx.config.mjs'], {}],
      [[], { KBCTX_CONFIG: ws.path('config/kbctx.config.mjs') }],
    ] as const) {
      const found = await cli([...args, 'search', 'signing keys', '--json'], { cwd: elsewhere, env });
      assert.equal(found.code, 0, found.stderr);
      assert.deepEqual(
        (JSON.parse(found.stdout) as { results: { title: string }[] }).results.map((r) => r.title),
        ['Key rotation'],
        JSON.stringify(args),
      );
    }
  });

  it('a module that throws or exports no object: exit 3 naming the file', async () => {
    const bad: [string, string, RegExp][] = [
      [
        'throws.mjs',
        'throw new Error("no secrets here");\n',
        /^error: bad\/throws\.mjs: the config module failed to load: no secrets here\n$/,
      ],
      [
        'string.mjs',
        'export default "db.path = x";\n',
        joinedRegExp(
          /^error: bad\/string\.mjs: the default export must be an object with the config /,
          /keys \(or a function returning one\), got string "db\.path = x"\n$/,
        ),
      ],
      [
        'plugin.mjs',
        'export default { plugins: ["bundled", { name: "half" }] };\n',
        /^error: plugin 'half' \(plugin\.mjs plugins\[1\]\): `version` must be a string\n$/,
      ],
    ];
    for (const [name, text, expected] of bad) {
      ws.write(`bad/${name}`, text);
      const run = await cli(['-c', `bad/${name}`, 'search', 'x']);
      assert.deepEqual([run.code, run.stdout], [3, ''], name);
      assert.match(run.stderr, expected);
    }
    const json = await cli(['-c', 'bad/throws.mjs', 'sources', '--json']);
    assert.deepEqual(JSON.parse(json.stderr), {
      error: { code: 'config_error', message: 'bad/throws.mjs: the config module failed to load: no secrets here' },
    });
    assert.equal(
      (await cli(['-c', 'bad/throws.mjs', '--version'])).code,
      0,
      'a command that reads no config does not fail',
    );
  });
});

describe('kbctx.config.mjs over REST', () => {
  let server: KbctxServer;
  before(async () => {
    server = await spawnServer(ws, ['serve', 'mcp', '--bind', '127.0.0.1:0', '--no-watch']);
  });
  after(() => server.stop());

  it('POST /tools/greet runs the inline plugin; the tool is listed', async () => {
    const answer = await fetch(`${server.url}/tools/greet`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ who: 'Grace' }),
    });
    assert.equal(answer.status, 200);
    assert.deepEqual(await answer.json(), { result: { text: 'hi, Grace' } });
    const listed = (await (await fetch(`${server.url}/tools/list`)).json()) as { tools: { name: string }[] };
    assert.ok(listed.tools.some((t) => t.name === 'greet'));
  });
});

describe('kbctx.config.mjs from the library', () => {
  it('openKbctx finds and imports it (or takes it by path, or takes a tree holding a plugin object)', async () => {
    const viaLookup = await openKbctx({ cwd: ws.path('elsewhere/..'), env: { GREETING: 'hey' } });
    const viaPath = await openKbctx({ cwd: ws.path('elsewhere'), config: '../config/kbctx.config.mjs', env: {} });
    const greeter = {
      name: 'greeter',
      version: '1.0.0',
      kbctx: '^0.2',
      apply: (kernel: {
        hooks: { tools: { tap: (name: string, fn: (tools: { add: (tool: unknown) => void }) => void) => void } };
      }) =>
        kernel.hooks.tools.tap('greeter', (tools) =>
          tools.add({
            name: 'greet',
            description: 'Greets',
            inputSchema: { type: 'object' },
            call: async () => ({ text: 'from a tree' }),
          }),
        ),
    };
    const viaTree = await openKbctx({
      cwd: ws.dir,
      env: {},
      config: { plugins: ['bundled', greeter], db: { path: 'data/kb.sqlite' } },
    });
    try {
      assert.deepEqual(
        (await viaPath.search({ query: 'signing keys' })).results.map((r) => r.title),
        ['Key rotation'],
        'paths relative to the project, not cwd',
      );
      const greetings = [];
      for (const kbctx of [viaLookup, viaPath, viaTree]) greetings.push(await postGreet(kbctx));
      assert.deepEqual(greetings, ['hey, Ada', 'hi, Ada', 'from a tree']);
    } finally {
      await Promise.all([viaLookup.close(), viaPath.close(), viaTree.close()]);
    }
  });
});

/** POST /tools/greet through the library's HTTP handler on a real port. */
async function postGreet(kbctx: Awaited<ReturnType<typeof openKbctx>>): Promise<string> {
  const server = createServer(createHttpHandler(kbctx));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${port}/tools/greet`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ who: 'Ada' }),
    });
    assert.equal(answer.status, 200, await answer.clone().text());
    return ((await answer.json()) as { result: { text: string } }).result.text;
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}
