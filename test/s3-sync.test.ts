// End-to-end: the real CLI syncing a real S3-compatible server (s3rver on 127.0.0.1) with more objects
// than one listing page; incremental by ETag, deletions, source URLs and error reporting.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startS3Server, S3_TEST_ENV, type S3TestServer } from './helpers/s3-server.ts';
import { Workspace } from './helpers/workspace.ts';

const PAGE_PLUS = 1005; // S3 lists at most 1000 keys per page

describe('s3 connector (s3rver)', () => {
  let server: S3TestServer;
  const ws = new Workspace();
  const sync = (target = 's3:kb'): ReturnType<Workspace['syncJson']> => ws.syncJson(target, { env: S3_TEST_ENV });

  before(async () => {
    server = await startS3Server(['kb']);
    const keys = Array.from({ length: PAGE_PLUS }, (_, i) => `docs/page-${String(i).padStart(4, '0')}.md`);
    for (let i = 0; i < keys.length; i += 25) {
      await Promise.all(
        keys.slice(i, i + 25).map((key, j) => server.put('kb', key, `# Page ${i + j}\n\nplain page number ${i + j}\n`)),
      );
    }
    await server.put(
      'kb',
      'docs/guide/intro.html',
      '<html><head><title>Intro guide</title></head><body><h1>Welcome</h1><p>zebra crossing manual</p></body></html>',
    );
    await server.put('kb', 'docs/image.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
    await server.put('kb', 'other/outside.md', '# Outside the prefix\n');
    ws.config(
      [
        '[connectors.s3.kb]',
        'bucket = "kb"',
        'prefix = "docs/"',
        `endpoint_url = "${server.endpoint}"`,
        'include_globs = ["**/*.md", "**/*.html"]',
        '',
        '[connectors.s3.missing]',
        'bucket = "no-such-bucket"',
        `endpoint_url = "${server.endpoint}"`,
        '',
      ].join('\n'),
    );
  });

  after(async () => {
    await server.stop();
    ws.cleanup();
  });

  it('indexes every object under the prefix across listing pages', async () => {
    const { code, reports } = await sync();
    assert.equal(code, 0);
    const [r] = reports;
    assert.ok(r);
    assert.equal(r.failure, null);
    assert.equal(r.fetched, PAGE_PLUS + 1);
    assert.equal(r.upserted, PAGE_PLUS + 1);
    const found = await ws.kbctx(['search', 'zebra crossing', '--json'], { env: S3_TEST_ENV });
    const results = (
      JSON.parse(found.stdout) as { results: { source_id: string; title: string; source_url: string }[] }
    ).results;
    assert.equal(results[0]?.source_id, 'docs/guide/intro.html');
    assert.equal(results[0]?.title, 'Intro guide');
    assert.equal(results[0]?.source_url, 's3://kb/docs/guide/intro.html');
  });

  it('re-downloads nothing when nothing changed', async () => {
    const [r] = (await sync()).reports;
    assert.equal(r?.unchanged, PAGE_PLUS + 1);
    assert.equal(r?.upserted, 0);
  });

  it('picks up changed objects by ETag and removes deleted keys', async () => {
    await server.put('kb', 'docs/page-0003.md', '# Page three\n\nnow about quokkas\n');
    await server.remove('kb', 'docs/page-0004.md');
    await server.remove('kb', 'docs/page-1004.md');
    const [r] = (await sync()).reports;
    assert.equal(r?.upserted, 1);
    assert.equal(r?.deleted, 2);
    assert.equal(r?.fetched, PAGE_PLUS - 1);
    const found = await ws.kbctx(['search', 'quokkas', '--json'], { env: S3_TEST_ENV });
    assert.match(found.stdout, /docs\/page-0003\.md/);
  });

  it('fails one connector with a clear message and a failing exit code, without stopping the other', async () => {
    const { code, reports } = await sync('s3');
    assert.notEqual(code, 0);
    const missing = reports.find((r) => r.connector === 's3:missing');
    assert.equal(missing?.failure?.code, 'connector_error');
    assert.match(missing?.failure?.message ?? '', /no-such-bucket/);
    const kb = reports.find((r) => r.connector === 's3:kb');
    assert.equal(kb?.failure, null);
    assert.equal(kb?.unchanged, PAGE_PLUS - 1);
  });
});
