// The script commands of the real CLI in a temp workspace: scaffolds pass their own test command
// unchanged, --json everywhere, exit 5 on a time-out, exit 1 with the Lua line on a script error.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Workspace } from '../helpers/workspace.ts';
import { joinedRegExp } from '../helpers/joined-regexp.ts';

const ws = new Workspace('kbctx-scripts-cli-');
const BASE = '[db]\npath = "data/index.sqlite"\n[connectors.filesystem.docs]\nroot = "docs"\n';
before(() => {
  ws.config(BASE);
  ws.write('docs/deploy.md', '# Deploying\n\nDeploys run from the main branch every weekday.');
});
after(() => ws.cleanup());
const json = (text: string): Record<string, unknown> => JSON.parse(text) as Record<string, unknown>;

describe('script commands', () => {
  it('connector init + connector test: the scaffold runs unchanged and writes nothing', async () => {
    const init = await ws.kbctx(['connector', 'init', 'feed']);
    assert.equal(init.code, 0, init.stderr);
    assert.match(init.stdout, /Created connectors\/feed\.lua/);
    assert.match(init.stdout, /\[connectors\.script\.feed\]\npath = "connectors\/feed\.lua"\ntimeout = 300\n/);
    const test = await ws.kbctx(['connector', 'test', 'connectors/feed.lua']);
    assert.equal(test.code, 0, test.stderr);
    assert.equal(test.stdout, 'example-1\tExample item\n1 item(s)\n');
    assert.match(test.stderr, /script:feed \[info\] scanned 1 item\(s\)/);
    assert.equal(existsSync(ws.path('data/index.sqlite')), false, 'connector test must not create the index');
    const again = await ws.kbctx(['connector', 'init', 'feed']);
    assert.equal(again.code, 7);
    assert.match(again.stderr, /connectors\/feed\.lua already exists/);
  });

  it('tool init + tool test: name, version, description, parameters, result; --json', async () => {
    assert.equal((await ws.kbctx(['init'])).code, 0); // an empty index: test commands never create one
    assert.equal((await ws.kbctx(['tool', 'init', 'hello'])).code, 0);
    const r = await ws.kbctx(['tool', 'test', 'tools/hello.lua']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      joinedRegExp(
        /^Name: +hello\nVersion: +0\.1\.0\nDescription: /,
        /.+\nParameters:\n {2}- query: string \(optional, default /,
        /"hello"\)/,
      ),
    );
    assert.match(r.stdout, /Result:\n\{\n {2}"count": 0,/);
    const j = json(
      (await ws.kbctx(['tool', 'test', 'tools/hello.lua', '--param', 'query=deploys', '--param', 'limit=1', '--json']))
        .stdout,
    );
    assert.equal(j['name'], 'hello');
    assert.deepEqual(Object.keys((j['parameters'] as { properties: object }).properties), ['query', 'limit']);
    assert.deepEqual(j['result'], { query: 'deploys', count: 0, titles: {} });
    const bad = await ws.kbctx(['tool', 'test', 'tools/hello.lua', '--param', 'limit=many']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /parameter 'limit' must be an integer/);
  });

  it('agent init prints the config entry; with it added, agent test resolves; inline agents too', async () => {
    const init = await ws.kbctx(['agent', 'init', 'guide']);
    assert.equal(init.code, 0, init.stderr);
    const entry = /(\[agents\.script\.guide\]\npath = "agents\/guide\.lua"\ntimeout = 30\n)/.exec(init.stdout)?.[1];
    assert.ok(entry, init.stdout);
    ws.config(
      `${BASE}${entry}[agents.inline.plain]\ndescription = "Plain"\ntools = ["search"]\nsystem_prompt = "Be brief."\n`,
    );
    const r = await ws.kbctx(['agent', 'test', 'guide', '--arg', 'topic=deploys']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      joinedRegExp(
        /^Agent: +guide\nSource: lua\nTools: +search, get\nSystem prompt /,
        /\((\d+) characters\):\nYou help with questions about deploys\./,
      ),
    );
    const inline = await ws.kbctx(['agent', 'test', 'plain']);
    assert.match(
      inline.stdout,
      /Source: toml\nTools: +search\nSystem prompt \(9 characters\):\nBe brief\.\nMessages \(0\):\n/,
    );
    const list = json((await ws.kbctx(['agent', 'list', '--json'])).stdout)['agents'] as Record<string, unknown>[];
    assert.deepEqual(
      list.map((a) => [a['name'], a['source']]),
      [
        ['guide', 'lua'],
        ['plain', 'toml'],
      ],
    );
    const missing = await ws.kbctx(['agent', 'test', 'nobody']);
    assert.equal(missing.code, 4);
  });

  it(
    'agent test refuses an unknown --arg and points at agent ' +
      'list for an unknown agent; tool test at tool list (issue 21)',
    async () => {
      ws.write(
        'agents/brief.lua',
        'agent = { arguments = { { name = "topic" }, { name = "tone" } } }\n' +
          'function agent.resolve(a) return { system = a.topic } end\n',
      );
      ws.config(`${BASE}[agents.script.brief]\npath = "agents/brief.lua"\n`);
      assert.equal((await ws.kbctx(['agent', 'test', 'brief', '--arg', 'topic=deploys'])).code, 0);
      const typo = await ws.kbctx(['agent', 'test', 'brief', '--arg', 'topic=deploys', '--arg', 'tpoic=x']);
      assert.equal(typo.code, 2, typo.stderr);
      assert.match(typo.stderr, /unknown argument 'tpoic' for agent 'brief'; known arguments: topic, tone/);
      const missing = await ws.kbctx(['agent', 'test', 'nobody']);
      assert.equal(missing.code, 4);
      assert.match(missing.stderr, /unknown agent 'nobody'.*`kbctx agent list`/);
      const noTool = await ws.kbctx(['tool', 'test', 'nosuch']);
      assert.equal(noTool.code, 4);
      assert.match(noTool.stderr, /script not found: nosuch.*`kbctx tool list`/);
    },
  );

  it(
    'connector test and tool test read only regular files of bounded ' +
      'size: a device, a FIFO or a huge file is refused, naming it',
    async () => {
      execFileSync('mkfifo', [ws.path('pipe.lua')]);
      ws.write('huge.lua', `-- ${'x'.repeat(5 * 1024 * 1024)}\ntool = {}\nfunction tool.execute() return 1 end\n`);
      const cases: [string, string, RegExp][] = [
        ['connector', '/dev/null', /\/dev\/null is not a regular file \(a device\)/],
        ['tool', 'pipe.lua', /pipe\.lua is not a regular file \(a named pipe\)/],
        ['tool', 'huge.lua', /huge\.lua is too large for a script \(\d+ bytes; the limit is 4194304\)/],
      ];
      for (const [kind, file, message] of cases) {
        const r = await ws.kbctx([kind, 'test', file]);
        assert.equal(r.code, 2, `${kind} test ${file}: ${r.stderr}`);
        assert.match(r.stderr, message);
      }
    },
  );

  it('tool list shows built-in and script tools with schemas', async () => {
    ws.config(`${BASE}[tools.script.hello]\npath = "tools/hello.lua"\n`);
    const tools = json((await ws.kbctx(['tool', 'list', '--json'])).stdout)['tools'] as Record<string, unknown>[];
    assert.deepEqual(
      tools.map((t) => [t['name'], t['builtin']]),
      [
        ['search', true],
        ['get', true],
        ['sources', true],
        ['hello', false],
      ],
    );
    const text = await ws.kbctx(['tool', 'list']);
    assert.match(
      text.stdout,
      /hello \(script\)\n {2}Describe what this tool does.*\n {2}- query: string\n {2}- limit: integer\n/,
    );
  });

  it(
    'a runaway script exits 5 at its time-out; a script error ' + 'exits 1 with the Lua line; print stays off stdout',
    async () => {
      ws.write(
        'tools/spin.lua',
        'tool = { parameters = {} }\nfunction tool.execute() print("spinning") while true do end end\n',
      );
      ws.config(`${BASE}[tools.script.spin]\npath = "tools/spin.lua"\ntimeout = 1\n`);
      const started = Date.now();
      const spin = await ws.kbctx(['tool', 'test', 'tools/spin.lua', '--source', 'spin']);
      assert.equal(spin.code, 5, spin.stderr);
      assert.match(spin.stderr, /error: tool:spin timed out after 1 s/);
      assert.match(spin.stderr, /tool:spin \[info\] spinning/);
      assert.doesNotMatch(spin.stdout, /spinning/);
      assert.ok(Date.now() - started < 10_000);
      ws.write(
        'tools/oops.lua',
        'tool = { parameters = {} }\nfunction tool.execute()\n  local t = nil\n  return t.x\nend\n',
      );
      const oops = await ws.kbctx(['tool', 'test', 'tools/oops.lua', '--json']);
      assert.equal(oops.code, 1);
      assert.deepEqual(json(oops.stderr), {
        error: { code: 'script_error', message: "tool:oops: oops.lua:4: attempt to index a nil value (local 't')" },
      });
    },
  );

  it('kbctx sync script:<name> indexes a scaffolded connector', async () => {
    ws.config(`${BASE}[connectors.script.feed]\npath = "connectors/feed.lua"\n`);
    const r = await ws.kbctx(['sync', 'script:feed']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^script:feed: fetched 1, upserted 1, chunks written 1/);
    const search = await ws.kbctx(['search', 'replace real content', '--json']);
    assert.equal((json(search.stdout)['results'] as { source: string }[])[0]?.source, 'script:feed');
  });
});
