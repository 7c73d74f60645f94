// Embedding never repeats work (issue 25), through the real CLI and an OpenAI-compatible server that
// counts the vectors it computes (test/helpers/hashing-provider.ts): a hand-run sync of one connector
// embeds only what it wrote and says what it left; a sync beside `embed pending`, or two `embed
// pending` at once, compute each chunk once (leases in the store, ADR 0126); `embed pending` prints
// progress lines to a non-terminal stderr.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startHashingProvider, type HashingProvider } from '../helpers/hashing-provider.ts';
import { Workspace } from '../helpers/workspace.ts';

const PER_CONNECTOR = 30;

describe('embedding never repeats work (CLI)', () => {
  let provider: HashingProvider;
  const ws = new Workspace('kbctx-embed-repeat-');
  const config = (model: string | null): void =>
    ws.config(
      (model === null
        ? ''
        : `[embedding]\nprovider = "openai"\nbase_url = "${provider.baseUrl}"\nmodel = "${model}"\ndims = 16\n` +
          `batch_size = 2\nconcurrency = 1\n`) +
        '[connectors.filesystem.a]\nroot = "a"\n[connectors.filesystem.b]\nroot = "b"\n',
    );
  const stored = async (): Promise<number> =>
    (JSON.parse((await ws.kbctx(['stats', '--json'])).stdout) as { embedded_chunks: number }).embedded_chunks;

  before(async () => {
    provider = await startHashingProvider(16, { delayMs: 15 });
    for (let i = 0; i < PER_CONNECTOR; i++) {
      ws.write(`a/a${i}.md`, `# A ${i}\n\nHerons and kingfishers, note ${i}.\n`);
      ws.write(`b/b${i}.md`, `# B ${i}\n\nWrite-ahead logs and checkpoints, note ${i}.\n`);
    }
    config(null); // the backlog: indexed while embeddings were off
    const sync = await ws.kbctx(['sync', 'all']);
    assert.equal(sync.code, 0, sync.stderr);
  });
  after(async () => {
    await provider.close();
    ws.cleanup();
  });

  it('a hand-run sync of one connector embeds only the documents it wrote, and says what it left', async () => {
    config('m1');
    ws.write('a/new.md', '# New\n\nA new note about herons.\n');
    const before = provider.computed();
    const sync = await ws.kbctx(['sync', 'filesystem:a']);
    assert.equal(sync.code, 0, sync.stderr);
    assert.equal(provider.computed() - before, 1, 'one vector: the one new chunk');
    assert.match(sync.stderr, /embedded 1 chunk\(s\) with openai:m1/);
    assert.match(
      sync.stderr,
      new RegExp(
        `${2 * PER_CONNECTOR} chunk\\(s\\) in the index still wait for embeddings \\(left to \`kbctx embed ` +
          `pending\` or a running \`kbctx serve\`\\)`,
      ),
    );
  });

  it('a no-change sync beside `embed pending` computes nothing; every chunk is computed once', async () => {
    const before = provider.computed();
    const embedding = ws.kbctx(['embed', 'pending'], { env: { KBCTX_PROGRESS_INTERVAL_MS: '50' } });
    while (provider.requests() === 0 || provider.computed() === before)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const sync = await ws.kbctx(['sync', 'all']);
    assert.equal(sync.code, 0, sync.stderr);
    const embed = await embedding;
    assert.equal(embed.code, 0, embed.stderr);
    assert.equal(provider.computed() - before, 2 * PER_CONNECTOR, 'the backlog, once');
    assert.match(embed.stdout, new RegExp(`embedded ${2 * PER_CONNECTOR} of ${2 * PER_CONNECTOR} pending chunk`));
    assert.ok(
      embed.stderr.split('\n').some((l) => /^embed: \d+\/60 {2}[\d.]+\/s {2}ETA /.test(l)),
      `progress lines on a non-terminal stderr: ${embed.stderr}`,
    );
    assert.equal(await stored(), 2 * PER_CONNECTOR + 1);
  });

  it('two `embed pending` at once share the work (another model: everything is pending again)', async () => {
    config('m2');
    const before = provider.computed();
    const [one, two] = await Promise.all([ws.kbctx(['embed', 'pending']), ws.kbctx(['embed', 'pending'])]);
    assert.equal(one.code, 0, one.stderr);
    assert.equal(two.code, 0, two.stderr);
    assert.equal(provider.computed() - before, 2 * PER_CONNECTOR + 1, 'each chunk computed by one of them');
    assert.match((await ws.kbctx(['embed', 'pending'])).stdout, /all chunks are already embedded \(openai:m2\)/);
  });
});
