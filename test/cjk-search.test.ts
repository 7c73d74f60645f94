// CJK retrieval over a real index: Japanese, Chinese, Korean and mixed-script documents synced from
// files, found by words inside unsegmented text, ranked, with snippets around the match.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseSearchParams } from '../plugins/tools-builtin/search-params.ts';
import { search } from '../core/app/search.ts';
import { IndexFixture } from './helpers/index-fixture.ts';

const fx = new IndexFixture();
const LONG_JA = `${'会議の議事録をここに記録します。'.repeat(30)}東京オフィスのカフェは抹茶ラテを提供します。${'来週の予定を確認してください。'.repeat(30)}`;

before(async () => {
  fx.ws.write('docs/cafe-ja.md', '# オフィス案内\n\n東京オフィスのカフェは抹茶ラテを提供します。');
  fx.ws.write('docs/matcha-ja.md', '# 抹茶の歴史\n\n抹茶は日本の伝統的な飲み物です。抹茶を点てる方法を説明します。');
  fx.ws.write('docs/long-ja.md', `# 議事録\n\n${LONG_JA}`);
  fx.ws.write('docs/cafe-zh.md', '# 办公室\n\n我们的办公室提供抹茶拿铁和咖啡。');
  fx.ws.write('docs/seoul-ko.md', '# 회의 안내\n\n서울에서 회의가 있습니다. 회의실은 3층입니다.');
  fx.ws.write('docs/guide-ja.md', '# ガイド\n\n新入社員向けのガイドです。');
  fx.ws.write('docs/mixed.md', '# Setup\n\nNode.js用の設定ファイルはconfigフォルダにあります。');
  fx.ws.write('docs/english.md', '# Coffee\n\nThe Tokyo office cafe serves coffee and tea.');
  await fx.sync();
});
after(() => fx.close());

const find = async (query: string) =>
  (await search(fx.kbctx.index.searchDeps(), parseSearchParams({ query }, fx.kbctx.config.retrieval))).results;
const ids = async (query: string) => (await find(query)).map((r) => r.sourceId);

describe('CJK search', () => {
  it('finds a Japanese word inside unsegmented text, ranking the document about it first', async () => {
    const found = await ids('抹茶');
    assert.equal(found[0], 'matcha-ja.md');
    for (const doc of ['cafe-ja.md', 'cafe-zh.md', 'long-ja.md']) assert.ok(found.includes(doc), doc);
    assert.ok(!found.includes('english.md'));
  });

  it('finds Chinese words and phrases', async () => {
    assert.deepEqual(await ids('咖啡'), ['cafe-zh.md']);
    assert.equal((await ids('办公室提供咖啡'))[0], 'cafe-zh.md');
  });

  it('finds a Korean word without its particle', async () => {
    assert.deepEqual(await ids('서울'), ['seoul-ko.md']);
    assert.deepEqual(await ids('회의실'), ['seoul-ko.md']);
  });

  it('matches voiced kana exactly', async () => {
    assert.deepEqual(await ids('ガイド'), ['guide-ja.md']);
  });

  it('finds both scripts of mixed text', async () => {
    assert.deepEqual(await ids('設定'), ['mixed.md']);
    assert.ok((await ids('Node.js')).includes('mixed.md'));
  });

  it('puts the snippet of a long document around the CJK match', async () => {
    const hit = (await find('抹茶ラテ')).find((r) => r.sourceId === 'long-ja.md');
    assert.ok(hit, 'long-ja.md found');
    assert.match(hit.snippet, /抹茶ラテ/);
  });

  // Runs last: it changes the index. Changed chunks reach the postings engine through its incremental
  // path (re-tokenised from stored text), which must segment CJK as the writer does for FTS5.
  it('finds CJK words in documents added and edited after the first sync', async () => {
    fx.ws.write('docs/later-ja.md', '# 新しい案内\n\n大阪の倉庫では緑茶を販売しています。');
    await fx.sync();
    assert.deepEqual(await ids('緑茶'), ['later-ja.md']);
    fx.ws.write('docs/later-ja.md', '# 新しい案内\n\n大阪の倉庫では紅茶を販売しています。');
    await fx.sync();
    assert.deepEqual(await ids('紅茶'), ['later-ja.md']);
    assert.deepEqual(await ids('緑茶'), []);
  });
});
