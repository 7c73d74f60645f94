// Log forging (issue 21): client text that reaches the server log (a Lua tool logging its argument,
// the path of a request whose client went away) comes out as one line, control characters escaped,
// length capped. The real `kbctx serve mcp` process (KBCTX_DEBUG on); its stderr is the log.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, it } from 'node:test';
import { spawnServer, type KbctxServer } from '../helpers/kbctx-server.ts';
import { Workspace } from '../helpers/workspace.ts';

// A tool parameter may be 65,536 characters: the script logs it twice (over 100 KB).
const HOSTILE = `forged\n2026-01-01 admin logged in\r\u001b[31mred\u001b[0m\u2028${'x'.repeat(60_000)}`;
let ws: Workspace;
let server: KbctxServer;

before(async () => {
  ws = new Workspace('kbctx-log-');
  ws.write('docs/a.md', '# A\n\nalpha\n');
  ws.write(
    'tools/echo_log.lua',
    'tool = { description = "Logs its text", parameters = { { name = "text", type = "string", required = true } ' +
      '} }\nfunction tool.execute(p) log.info("MARK-LUA " .. p.text .. p.text) return { ok = true } end\n',
  );
  ws.config('[connectors.filesystem.docs]\nroot = "docs"\n[tools.script.echo_log]\npath = "tools/echo_log.lua"\n');
  server = await spawnServer(ws, ['serve', 'mcp', '--bind', '127.0.0.1:0', '--no-watch'], { KBCTX_DEBUG: '1' });
});
after(async () => {
  await server.stop();
  ws.cleanup();
});

/** The log lines containing `marker`, once the server has written one. */
async function linesWith(marker: string): Promise<string[]> {
  for (let i = 0; i < 200 && !server.stderr().includes(marker); i++) await new Promise((r) => setTimeout(r, 25));
  return server
    .stderr()
    .split('\n')
    .filter((l) => l.includes(marker));
}

function assertOneCappedLine(lines: string[]): string {
  assert.equal(lines.length, 1, `expected one log line, got ${lines.length}`);
  const line = lines[0]!;
  // eslint-disable-next-line no-control-regex -- no control character may reach the log
  assert.doesNotMatch(line, /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
  assert.ok(line.length <= 4200, `log line of ${line.length} characters`);
  assert.match(line, /… \(\d+ more characters\)$/);
  return line;
}

it('a Lua tool logging its hostile argument (newline, CR, ESC, 120 KB) writes one escaped, capped line', async () => {
  const res = await fetch(`${server.url}/tools/echo_log`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: HOSTILE }),
  });
  assert.equal(res.status, 200, await res.text());
  const line = assertOneCappedLine(await linesWith('MARK-LUA'));
  assert.match(line, /forged\\n2026-01-01 admin logged in\\r\\u001b\[31mred\\u001b\[0m\\u2028x/);
  assert.ok(
    !server
      .stderr()
      .split('\n')
      .some((l) => l.startsWith('2026-01-01 admin')),
    'a forged line in the log',
  );
});

it('the 12 KB path of a request whose client went away is logged as one capped line', async () => {
  const path = `/tools/search?MARK-PATH${'%0A'.repeat(4000)}`;
  const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
  socket.write(
    `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{`,
  );
  await new Promise((r) => setTimeout(r, 200)); // the body has started; then the client hangs up
  socket.destroy();
  assert.match(
    assertOneCappedLine(await linesWith('MARK-PATH')),
    /^client went away: POST \/tools\/search\?MARK-PATH%0A/,
  );
});
