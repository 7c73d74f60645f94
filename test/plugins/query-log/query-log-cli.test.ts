// The query log from the real CLI (ADR 0220): `redact = true` writes the query's SHA-256 and never its text;
// a search over `kbctx serve mcp --stdio` logs surface mcp with no token; a log file that cannot be written
// leaves the search's answer and exit code alone and warns once; and `kbctx query-log export --beir` turns
// a log into queries and pseudo-qrels that `kbctx eval` replays.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { KBCTX_BIN, Workspace } from '../../helpers/workspace.ts';

const spaces: Workspace[] = [];
after(() => spaces.forEach((ws) => ws.cleanup()));

async function workspace(queryLog: string): Promise<Workspace> {
  const ws = new Workspace();
  spaces.push(ws);
  ws.write('kb/otters.md', '# Otters\n\nOtters swim in rivers and eat fish.\n');
  ws.write('kb/owls.md', '# Owls\n\nOwls hunt at night in the forest.\n');
  ws.write('kb/dams.md', '# Dams\n\nBeavers build dams across rivers.\n');
  ws.config(`[db]\npath = "index.sqlite"\n[connectors.filesystem.kb]\nroot = "kb"\n${queryLog}`);
  assert.equal((await ws.kbctx(['sync', 'all'])).code, 0);
  return ws;
}

const lines = (ws: Workspace, file: string): Record<string, unknown>[] =>
  readFileSync(ws.path(file), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

it('redact = true logs the SHA-256 of the query, not its text', async () => {
  const ws = await workspace('[query_log]\nfile = "q.jsonl"\nredact = true\n');
  const r = await ws.kbctx(['search', 'otters', 'rivers']);
  assert.equal(r.code, 0, r.stderr);
  const [line] = lines(ws, 'q.jsonl');
  assert.equal(line?.['query_sha256'], createHash('sha256').update('otters rivers').digest('hex'));
  assert.equal('query' in (line ?? {}), false);
  assert.doesNotMatch(readFileSync(ws.path('q.jsonl'), 'utf8'), /otters/);
  assert.equal((line?.['results'] as unknown[]).length, 2, 'the results are still logged');
});

it('a search over MCP stdio is logged as surface mcp with no token name', async () => {
  const ws = await workspace('[query_log]\nfile = "q.jsonl"\n');
  const client = new Client({ name: 'query-log-stdio', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [KBCTX_BIN, 'serve', 'mcp', '--stdio'],
      cwd: ws.dir,
      env: { PATH: process.env['PATH'] ?? '', KBCTX_CONFIG: '' },
      stderr: 'pipe',
    }),
  );
  const called = await client.callTool({ name: 'search', arguments: { query: 'beavers' } });
  assert.notEqual(called.isError, true);
  await client.close();
  // The line is appended after the answer: wait for it (polled, not timed).
  while (!existsSync(ws.path('q.jsonl')) || !readFileSync(ws.path('q.jsonl'), 'utf8').endsWith('\n')) await sleep(10);
  const [line] = lines(ws, 'q.jsonl');
  assert.equal(line?.['surface'], 'mcp');
  assert.equal(line?.['token'], null);
  assert.equal(line?.['query'], 'beavers');
});

it('a log file that cannot be written does not break the search: same answer, exit 0, one warning', async () => {
  const ws = await workspace('[query_log]\nfile = "blocker/q.jsonl"\n');
  ws.write('blocker', 'a file where the log folder should be\n');
  const r = await ws.kbctx(['search', 'owls', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const results = (JSON.parse(r.stdout) as { results: { title: string }[] }).results;
  assert.deepEqual(
    results.map((x) => x.title),
    ['Owls'],
  );
  assert.equal(r.stderr.match(/cannot write the query log/g)?.length, 1, r.stderr);
});

it(
  'kbctx query-log export --beir writes the logged queries ' + 'and their top results; kbctx eval replays them',
  async () => {
    const ws = await workspace('[query_log]\nfile = "logs/q.jsonl"\n');
    for (const q of ['otters', 'rivers', 'owls night'])
      assert.equal((await ws.kbctx(['search', ...q.split(' '), '--limit', '2'])).code, 0);
    const logged = lines(ws, 'logs/q.jsonl');
    assert.deepEqual(
      logged.map((l) => l['query']),
      ['otters', 'rivers', 'owls night'],
    );
    const exported = await ws.kbctx(['query-log', 'export', '--beir', 'replay', '--top', '2', '--json']);
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal((JSON.parse(exported.stdout) as { queries: number }).queries, 3);
    const queries = readFileSync(ws.path('replay/queries.jsonl'), 'utf8');
    assert.equal(
      queries,
      '{"_id":"q1","text":"otters"}\n{"_id":"q2","text":"rivers"}\n{"_id":"q3","text":"owls night"}\n',
    );
    const rivers = (logged[1]?.['results'] as { id: string }[]).map((x) => x.id);
    assert.equal(rivers.length, 2);
    const qrels = readFileSync(ws.path('replay/qrels/test.tsv'), 'utf8');
    assert.match(qrels, new RegExp(`^q2\\t${rivers[0]}\\t2$`, 'm'));
    assert.match(qrels, new RegExp(`^q2\\t${rivers[1]}\\t1$`, 'm'));
    // The same index and settings find the same documents in the same order: a perfect replay.
    const evaluated = await ws.kbctx([
      'eval',
      '--queries',
      'replay/queries.jsonl',
      '--qrels',
      'replay/qrels/test.tsv',
      '--json',
    ]);
    assert.equal(evaluated.code, 0, evaluated.stderr);
    const [run] = (JSON.parse(evaluated.stdout) as { runs: { ndcg_at_10: number; queries: number }[] }).runs;
    assert.equal(run?.queries, 3);
    assert.equal(run?.ndcg_at_10, 1);
    assert.equal(lines(ws, 'logs/q.jsonl').length, 3, "eval's own searches are not logged");
  },
);

it('export without a configured log or --log is a usage error naming the option', async () => {
  const ws = await workspace('');
  const r = await ws.kbctx(['query-log', 'export', '--beir', 'out']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /no query log is configured \(\[query_log\] file\): name one with --log <file>/);
});
