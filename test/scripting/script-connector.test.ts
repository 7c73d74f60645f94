// Script connectors synced through the real sync path into a real SQLite index: items, skipped bad
// items, checkpoints handed back, deleted ids, complete listings, source override, time formats.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { toIsoTime } from '../../core/connectors/plugin-items.ts';
import { IndexFixture } from '../helpers/index-fixture.ts';

describe('script connectors', () => {
  const fx = new IndexFixture(`
[connectors.script.feed]
path = "connectors/feed.lua"
prefix = "Note"
[connectors.script.inc]
path = "connectors/inc.lua"
[connectors.script.slow]
path = "connectors/slow.lua"
timeout = 0.5
`);
  after(() => fx.close());

  const docs = async (source: string) =>
    (await fx.kbctx.store.exportAll()).documents
      .filter((d) => d.source === source)
      .map((d) => ({
        sourceId: d.sourceId,
        title: d.title,
        updatedAt: d.updatedAt,
        metadata: d.metadata,
        url: d.sourceUrl,
      }))
      .sort((a, b) => a.sourceId.localeCompare(b.sourceId));

  it('syncs items, skips bad ones with a warning naming the index, coerces numeric ids', async () => {
    fx.ws.write(
      'connectors/feed.lua',
      `
connector = { name = "feed" }
function connector.scan(config, checkpoint)
  assert(checkpoint == nil)
  return {
    { source_id = 1, title = config.prefix .. " one", body = "first body about lua",
      updated_at = "2024-05-01T10:00:00Z",
      author = "ana", metadata_json = '{"tags":["x"]}', source_url = "https://example.com/1" },
    { source_id = "two", body = "second", updated_at = 1714557600 },
    { title = "no id", body = "x" },
    { source_id = "empty", body = "" },
    { source_id = "three", body = "third", updated_at = "2024-05-01 12:30:00", created_at = "2024-04-01" },
  }
end`,
    );
    const report = await fx.syncOne('script:feed');
    assert.equal(report.failure, null);
    assert.equal(report.upserted, 3);
    assert.deepEqual(await docs('script:feed'), [
      {
        sourceId: '1',
        title: 'Note one',
        updatedAt: '2024-05-01T10:00:00.000Z',
        metadata: { tags: ['x'], author: 'ana' },
        url: 'https://example.com/1',
      },
      {
        sourceId: 'three',
        title: 'three',
        updatedAt: '2024-05-01T12:30:00.000Z',
        metadata: { created_at: '2024-04-01T00:00:00.000Z' },
        url: null,
      },
      { sourceId: 'two', title: 'two', updatedAt: '2024-05-01T10:00:00.000Z', metadata: {}, url: null },
    ]);
  });

  it('a complete listing (no checkpoint) removes items the script no longer returns', async () => {
    fx.ws.write(
      'connectors/feed.lua',
      'connector = {}\nfunction connector.scan() return { { source_id = "two", body = "second" } } end\n',
    );
    const report = await fx.syncOne('script:feed');
    assert.equal(report.deleted, 2);
    assert.deepEqual(
      (await docs('script:feed')).map((d) => d.sourceId),
      ['two'],
    );
  });

  it('incremental: the checkpoint comes back next time; deleted ids leave the index; source override', async () => {
    fx.ws.write(
      'connectors/inc.lua',
      `
connector = {}
function connector.scan(config, checkpoint)
  if checkpoint == nil then
    return { { source_id = "a", body = "alpha" }, { source_id = "b", body = "beta" }, { source_id = "x",
      body = "other", source = "custom:label" } },
           { cursor = 2, seen = { "a", "b" } }
  end
  assert(checkpoint.cursor == 2 and checkpoint.seen[2] == "b", "checkpoint not handed back")
  return { { source_id = "c", body = "gamma" } }, { cursor = 3 }, { "a" }
end`,
    );
    const first = await fx.syncOne('script:inc');
    assert.equal(first.upserted, 3);
    assert.deepEqual(
      (await docs('custom:label')).map((d) => d.sourceId),
      ['x'],
    );
    const second = await fx.syncOne('script:inc');
    assert.equal(second.failure, null, second.failure?.message);
    assert.equal(second.deleted, 1);
    assert.deepEqual(
      (await docs('script:inc')).map((d) => d.sourceId),
      ['b', 'c'],
    );
    assert.equal((await fx.kbctx.store.sourceState('script:inc')).checkpoint, '{"cursor":3}');
  });

  it('a failing or runaway script fails the connector and deletes nothing', async () => {
    fx.ws.write('connectors/inc.lua', 'connector = {}\nfunction connector.scan()\n  error("upstream down")\nend\n');
    const failed = await fx.syncOne('script:inc');
    assert.deepEqual(failed.failure, { code: 'script_error', message: 'script:inc: inc.lua:3: upstream down' });
    assert.deepEqual(
      (await docs('script:inc')).map((d) => d.sourceId),
      ['b', 'c'],
    );
    fx.ws.write('connectors/slow.lua', 'connector = {}\nfunction connector.scan() sleep(60) end\n');
    const slow = await fx.syncOne('script:slow');
    assert.equal(slow.failure?.code, 'timeout');
  });
});

describe('toIsoTime', () => {
  it('accepts RFC 3339, naive date-times (UTC), dates and unix seconds', () => {
    assert.equal(toIsoTime('2024-05-01T10:00:00+02:00'), '2024-05-01T08:00:00.000Z');
    assert.equal(toIsoTime('2024-05-01T10:00:00'), '2024-05-01T10:00:00.000Z');
    assert.equal(toIsoTime('2024-05-01 10:00:00'), '2024-05-01T10:00:00.000Z');
    assert.equal(toIsoTime(0), '1970-01-01T00:00:00.000Z');
    assert.equal(toIsoTime('1714557600'), '2024-05-01T10:00:00.000Z');
    assert.equal(toIsoTime('yesterday'), undefined);
  });
});
