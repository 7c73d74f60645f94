import assert from 'node:assert/strict';
import { it } from 'node:test';
import '../../../registry/bundled.ts'; // the plugins owning [server] and the connector types (ADR 0164)
import { KbctxError } from '../../../core/domain/errors.ts';
import { parseConfig } from '../../../core/config/load-config.ts';
import { serverConfigOf } from '../../../plugins/transport-http/api.ts';
import { scriptConnectorsOf } from '../../../plugins/lua-bridge/api.ts';
import { syncConfigOf, syncIntervalOf } from '../../../plugins/live-index/api.ts';
import type { Config } from '../../../core/api/plugin.ts';

/** Label → schedule, as the live index reads it. */
const intervals = (config: Config, labels: string[]) =>
  Object.fromEntries(labels.map((label) => [label, syncIntervalOf(config, label)]));

const parse = (toml: string) => parseConfig(toml, { file: 'config/kbctx.toml', cwd: '/tmp', env: {} });

it('[server] watch defaults to true and [sync] interval to 15 minutes, inherited by every connector', () => {
  const config = parse(
    '[connectors.filesystem.docs]\nroot = "docs"\n[connectors.script.t]\npath = "t.lua"\nurl = "x"\n',
  );
  assert.equal(serverConfigOf(config).watch, true);
  assert.equal(syncConfigOf(config).intervalSecs, 900);
  assert.deepEqual(intervals(config, ['filesystem:docs', 'script:t']), { 'filesystem:docs': 900, 'script:t': 900 });
  assert.deepEqual(scriptConnectorsOf(config)['t']?.extra, { url: 'x' }, 'sync_interval is not handed to the script');
});

it('sync_interval accepts durations, seconds and "off", per connector', () => {
  const config = parse(
    '[sync]\ninterval = "1h"\n[server]\nwatch = false\n' +
      '[connectors.git.a]\nurl = "u"\nsync_interval = "5m"\n[connectors.s3.b]\nbucket = "b"\nsync_interval = 90\n' +
      '[connectors.script.c]\npath = "c.lua"\nsync_interval = "off"\n[connectors.filesystem.d]\nroot = "d"\n',
  );
  assert.equal(serverConfigOf(config).watch, false);
  assert.deepEqual(intervals(config, ['git:a', 's3:b', 'script:c', 'filesystem:d']), {
    'git:a': 300,
    's3:b': 90,
    'script:c': 0,
    'filesystem:d': 3600,
  });
  assert.deepEqual(config.syncIntervals, { 'git:a': 300, 's3:b': 90, 'script:c': 0 }, 'the written ones');
});

it("[sync] is the live index's section: a bad interval names the key and the plugin", () => {
  assert.throws(
    () => parse('[sync]\ninterval = "soon"\n'),
    (e: unknown) =>
      e instanceof KbctxError &&
      /^config\/kbctx\.toml: sync\.interval must be a duration .*\(checked by plugin 'live-index'\)$/.test(e.message),
  );
});

it('a malformed duration is a config error naming the key', () => {
  assert.throws(
    () => parse('[connectors.git.a]\nurl = "u"\nsync_interval = "soon"\n'),
    (e: unknown) =>
      e instanceof KbctxError && /connectors\.git\.a\.sync_interval must be a duration such as "30s"/.test(e.message),
  );
});

it('[server] watch takes true, false or "poll"', () => {
  assert.equal(serverConfigOf(parse('[server]\nwatch = "poll"\n')).watch, 'poll');
  assert.throws(
    () => parse('[server]\nwatch = "sometimes"\n'),
    (e: unknown) => e instanceof KbctxError && /server\.watch must be true, false or "poll"/.test(e.message),
  );
});
