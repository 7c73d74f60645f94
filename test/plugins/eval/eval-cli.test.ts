// `kbctx eval` end to end: the real CLI on a tiny BEIR folder (graded qrels; one query with nothing
// relevant retrieved), printed and --json figures equal to hand-computed ones; the same qrels against a
// configured index by source id; flags it cannot use are bad_request (exit 2).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, it } from 'node:test';
import { startHashingProvider } from '../../helpers/hashing-provider.ts';
import { startStandInReranker } from '../../helpers/stand-in-reranker.ts';
import { Workspace } from '../../helpers/workspace.ts';

const spaces: Workspace[] = [];
after(() => spaces.forEach((ws) => ws.cleanup()));

const DOCS = [
  { _id: 'd1', title: 'Otters', text: 'Otters, otters and more otters.' },
  {
    _id: 'd2',
    title: 'Rivers',
    text:
      'Rivers carry water from the hills to the sea through valleys and plains, past towns, fields and forests; an ' +
      'otter family lives by one, and otters are seen there at dawn.',
  },
  { _id: 'd3', title: 'Beavers', text: 'Beavers build dams across streams.' },
  { _id: 'd4', title: 'Owls', text: 'Owls hunt at night.' },
  { _id: 'd5', title: 'Salmon', text: 'Salmon swim upstream to spawn.' },
  { _id: 'd6', title: 'Dams', text: 'Dams, dams: concrete dams.' },
  { _id: 'd7', title: 'Forest', text: 'Trees grow in the forest.' },
];
const QUERIES = [
  { _id: 'q1', text: 'otters' },
  { _id: 'q2', text: 'dams' },
  { _id: 'q3', text: 'owls' },
];
// q1: d1 (grade 1) ranks first, d2 (grade 2) second, d7 (grade 1) is not retrieved, d3 judged 0.
//   DCG = 1/log2(2) + 2/log2(3) = 2.261860; ideal = 2 + 1/log2(3) + 1/log2(4) = 3.130930 → 0.722425.
//   Recall@100 2/3, MRR@10 1. q2: d6 first (grade 0), d3 (grade 2) second: nDCG 2/log2(3) / 2 = 0.630930,
//   Recall 1, MRR 1/2. q3: d5 relevant, never retrieved (no word in common): 0, 0, 0.
const QRELS =
  'query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t2\nq1\td7\t1\nq1\td3\t0\nq2\td6\t0\nq2\td3\t2\nq3\td5\t1\n';
const EXPECTED = { ndcg: '0.4511', recall: '0.5556', mrr: '0.5000' }; // (0.722425 + 0.630930 + 0) / 3, …

const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

function workspace(): Workspace {
  const ws = new Workspace();
  spaces.push(ws);
  ws.write('beir/corpus.jsonl', jsonl(DOCS));
  ws.write('beir/queries.jsonl', jsonl(QUERIES));
  ws.write('beir/qrels/test.tsv', QRELS);
  for (const d of DOCS) ws.write(`kb/${d._id}.md`, `# ${d.title}\n\n${d.text}\n`);
  ws.write('source-qrels.tsv', QRELS.replace(/\t(d\d)\t/g, '\t$1.md\t'));
  ws.config('[db]\npath = "index.sqlite"\n[connectors.filesystem.kb]\nroot = "kb"\n');
  return ws;
}

interface EvalJson {
  index: string;
  runs: { mode: string; ndcg_at_10: number; recall_at_100: number; mrr_at_10: number; queries: number }[];
}

function assertFigures(json: EvalJson): void {
  const [run] = json.runs;
  assert.equal(json.runs.length, 1);
  assert.equal(run?.mode, 'keyword');
  assert.equal(run?.queries, 3);
  assert.equal(run?.ndcg_at_10.toFixed(4), EXPECTED.ndcg);
  assert.equal(run?.recall_at_100.toFixed(4), EXPECTED.recall);
  assert.equal(run?.mrr_at_10.toFixed(4), EXPECTED.mrr);
}

it('kbctx eval <folder> indexes the corpus into a temporary index and prints the hand-computed figures', async () => {
  const ws = workspace();
  const printed = await ws.kbctx(['eval', 'beir', '--split', 'test']);
  assert.equal(printed.code, 0, printed.stderr);
  assert.match(printed.stdout, /3 judged queries, 7 documents/);
  const row = printed.stdout.split('\n').find((l) => l.startsWith('keyword'));
  assert.deepEqual(row?.split(/\s+/).slice(3, 8), ['-', EXPECTED.ndcg, EXPECTED.recall, EXPECTED.mrr, '3']);
  const json = await ws.kbctx(['eval', 'beir', '--json']);
  assert.equal(json.code, 0, json.stderr);
  const parsed = JSON.parse(json.stdout) as EvalJson;
  assert.equal(parsed.index, 'temporary');
  assertFigures(parsed);
  assert.equal(existsSync(ws.path('index.sqlite')), false, 'the configured index is not created');
});

it('--queries and --qrels run against the configured index, documents named by source id', async () => {
  const ws = workspace();
  assert.equal((await ws.kbctx(['sync', 'all'])).code, 0);
  const r = await ws.kbctx(['eval', '--queries', 'beir/queries.jsonl', '--qrels', 'source-qrels.tsv', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const parsed = JSON.parse(r.stdout) as EvalJson;
  assert.equal(parsed.index, 'configured');
  assertFigures(parsed);
});

it('--chunk-tokens re-indexes per size: one row each in the --compare table', async () => {
  const ws = workspace();
  const r = await ws.kbctx(['eval', 'beir', '--compare', '--chunk-tokens', '64,128', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const runs = (JSON.parse(r.stdout) as { runs: { chunk_tokens: number; ndcg_at_10: number }[] }).runs;
  assert.deepEqual(
    runs.map((x) => [x.chunk_tokens, x.ndcg_at_10.toFixed(4)]),
    [
      [64, EXPECTED.ndcg],
      [128, EXPECTED.ndcg],
    ],
  );
});

it('flags it cannot use are bad_request (exit 2) naming the flag', async () => {
  const ws = workspace();
  ws.write('other-qrels.tsv', 'q9\td1\t1\n');
  for (const [args, message] of [
    [['eval', 'beir', '--mode', 'fuzzy'], /--mode fuzzy/],
    [['eval', 'beir', '--mode', 'semantic'], /needs an \[embedding\] provider/],
    [['eval', 'beir', '--alpha', '0.3'], /--alpha weighs hybrid/],
    [['eval', 'beir', '--chunk-tokens', '0'], /--chunk-tokens 0/],
    [['eval', 'beir', '--rerank', 'maybe'], /--rerank maybe: expected on, off or on,off/],
    [['eval', 'beir', '--rerank', 'on'], /--rerank needs a \[rerank\] provider/],
    [['eval', 'beir', '--split', 'dev'], /no qrels for split 'dev'/],
    [['eval', '--qrels', 'source-qrels.tsv'], /both --queries and --qrels/],
    [['eval', 'beir', '--qrels', 'other-qrels.tsv'], /no query of the queries file has a relevant document/],
    [['eval', 'beir', '--queries', 'missing.jsonl'], /queries file .*missing\.jsonl cannot be read/],
  ] as const) {
    const r = await ws.kbctx([...args]);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
});

it('--compare with an embedder: keyword, semantic and one hybrid row per --alpha, in one table', async () => {
  const provider = await startHashingProvider(16);
  try {
    const ws = workspace();
    ws.config(
      `[db]\npath = "index.sqlite"\n[connectors.filesystem.kb]\nroot = "kb"\n` +
        `[embedding]\nprovider = "openai"\nbase_url = "${provider.baseUrl}"\nmodel = "hash"\ndims = 16\n`,
    );
    const r = await ws.kbctx(['eval', 'beir', '--compare', '--alpha', '0.2,0.5', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const runs = (JSON.parse(r.stdout) as { runs: { mode: string; alpha: number | null; ndcg_at_10: number }[] }).runs;
    assert.deepEqual(
      runs.map((x) => [x.mode, x.alpha]),
      [
        ['keyword', null],
        ['semantic', null],
        ['hybrid', 0.2],
        ['hybrid', 0.5],
      ],
    );
    assert.equal(runs[0]?.ndcg_at_10.toFixed(4), EXPECTED.ndcg);
    assert.ok(provider.computed() >= DOCS.length, 'the corpus was embedded');
    const printed = await ws.kbctx(['eval', 'beir', '--compare', '--alpha', '0.2,0.5']);
    assert.deepEqual(
      printed.stdout
        .split('\n')
        .slice(2)
        .filter((l) => l !== '')
        .map((l) => l.split(/\s+/).slice(0, 2).join(' ')),
      ['keyword -', 'semantic -', 'hybrid 0.20', 'hybrid 0.50'],
    );
  } finally {
    await provider.close();
  }
});

it('with a reranker, --compare runs each row with reranking on and off; --rerank off alone skips it', async () => {
  // The stand-in reverses the fused order. q1: d2 (grade 2) then d1 (1): DCG 2 + 1/log2(3) = 2.630930 over
  // 3.130930 → 0.840306; q2: d3 (grade 2) first → 1; q3: 0. Mean nDCG@10 0.6134; Recall unchanged; MRR (1 + 1) / 3.
  const remote = await startStandInReranker();
  try {
    const ws = workspace();
    ws.config(
      `[db]\npath = "index.sqlite"\n[connectors.filesystem.kb]\nroot = "kb"\n` +
        `[rerank]\nprovider = "http"\nformat = "tei"\nbase_url = "${remote.url}/tei"\n`,
    );
    const r = await ws.kbctx(['eval', 'beir', '--compare', '--json']);
    assert.equal(r.code, 0, r.stderr);
    type Run = { mode: string; rerank: boolean | null; ndcg_at_10: number; recall_at_100: number; mrr_at_10: number };
    const figures = (x: Run) => [
      x.mode,
      x.rerank,
      ...[x.ndcg_at_10, x.recall_at_100, x.mrr_at_10].map((n) => n.toFixed(4)),
    ];
    assert.deepEqual((JSON.parse(r.stdout) as { runs: Run[] }).runs.map(figures), [
      ['keyword', true, '0.6134', EXPECTED.recall, '0.6667'],
      ['keyword', false, EXPECTED.ndcg, EXPECTED.recall, EXPECTED.mrr],
    ]);
    const sent = remote.requests.length;
    assert.ok(sent >= 2, 'the reranked row asked the remote');
    const off = await ws.kbctx(['eval', 'beir', '--rerank', 'off']);
    assert.equal(off.code, 0, off.stderr);
    assert.match(off.stdout, /\nmode\s+alpha\s+chunk_tokens\s+rerank\s+nDCG@10/);
    const row = off.stdout.split('\n').find((l) => l.startsWith('keyword'));
    assert.deepEqual(row?.split(/\s+/).slice(0, 5), ['keyword', '-', 'configured', 'off', EXPECTED.ndcg]);
    assert.equal(remote.requests.length, sent, '--rerank off never asks the remote');
  } finally {
    await remote.close();
  }
});

it('"!eval" drops the command', async () => {
  const ws = workspace();
  ws.config('plugins = ["bundled", "!eval"]\n[db]\npath = "index.sqlite"\n');
  const r = await ws.kbctx(['eval', 'beir']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /unknown command 'eval'/);
});
