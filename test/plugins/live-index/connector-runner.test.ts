import assert from 'node:assert/strict';
import { it } from 'node:test';
import { failedReport, type SyncReport } from '../../../core/app/sync.ts';
import { KbctxError } from '../../../core/domain/errors.ts';
import { ConnectorRunner, type RunReason } from '../../../plugins/live-index/connector-runner.ts';

const report = (over: Partial<SyncReport> = {}): SyncReport => ({
  connector: 'filesystem:docs',
  fetched: 1,
  upserted: 1,
  unchanged: 0,
  chunksWritten: 1,
  deleted: 0,
  skipped: 0,
  errors: 0,
  notes: [],
  failure: null,
  durationMs: 1,
  ...over,
});

/** A runner whose syncs finish when the test says so. */
function harness(intervalSecs = 0) {
  const calls: (readonly string[] | undefined)[] = [];
  const finishers: ((r: SyncReport) => void)[] = [];
  const runs: RunReason[] = [];
  let active = 0;
  let maxActive = 0;
  let ran: () => void = () => {};
  const runner = new ConnectorRunner({
    label: 'filesystem:docs',
    intervalSecs,
    failedReport,
    sync: (paths) => {
      calls.push(paths);
      active++;
      maxActive = Math.max(maxActive, active);
      return new Promise((resolve) => finishers.push((r) => (active--, resolve(r))));
    },
    onRun: (_r, reason) => {
      runs.push(reason);
      ran();
    },
  });
  const nextRun = (): Promise<void> => new Promise((resolve) => (ran = resolve));
  return { runner, calls, finishers, runs, nextRun, maxActive: () => maxActive };
}

it('never runs two syncs at once; requests during a run merge into one follow-up with the union of paths', async () => {
  const h = harness();
  h.runner.request({ paths: ['a.md'] }, 'watch');
  h.runner.request({ paths: ['b.md'] }, 'watch');
  h.runner.request({ paths: ['c.md', 'b.md'] }, 'watch');
  assert.equal(h.calls.length, 1);
  assert.equal(h.runner.snapshot().state, 'running');
  let done = h.nextRun();
  h.finishers.shift()!(report());
  await done;
  await Promise.resolve();
  assert.deepEqual(h.calls[1], ['b.md', 'c.md']);
  h.runner.request('all', 'request');
  done = h.nextRun();
  h.finishers.shift()!(report());
  await done;
  await Promise.resolve();
  assert.equal(h.calls[2], undefined, "'all' wins over paths");
  done = h.nextRun();
  h.finishers.shift()!(report());
  await done;
  await h.runner.idle();
  assert.equal(h.maxActive(), 1);
  assert.equal(h.runner.snapshot().state, 'idle');
  h.runner.close();
});

it(
  'a failure marks the connector failed, keeps the last good ' + 'counts and schedules a retry; success clears it',
  async () => {
    const h = harness(600);
    h.runner.request('all', 'start');
    let done = h.nextRun();
    h.finishers.shift()!(report({ upserted: 7 }));
    await done;
    assert.equal(h.runner.snapshot().lastCounts?.upserted, 7);
    const scheduled = Date.parse(h.runner.snapshot().nextRunAt!);
    assert.ok(scheduled > Date.now() + 500_000, 'next run one interval later');

    h.runner.request('all', 'request');
    done = h.nextRun();
    h.finishers.shift()!(report({ failure: { code: 'connector_error', message: 'remote unreachable' } }));
    await done;
    const failed = h.runner.snapshot();
    assert.equal(failed.state, 'failed');
    assert.equal(failed.lastError, 'connector_error: remote unreachable');
    assert.equal(failed.lastCounts?.upserted, 7);
    assert.ok(
      Date.parse(failed.nextRunAt!) < scheduled,
      'the retry comes sooner than the schedule (backoff starts small)',
    );

    h.runner.request('all', 'request');
    done = h.nextRun();
    h.finishers.shift()!(report({ upserted: 0 }));
    await done;
    assert.equal(h.runner.snapshot().state, 'idle');
    assert.equal(h.runner.snapshot().lastError, null);
    h.runner.close();
  },
);

it('another process holding the connector (conflict) is not a failure', async () => {
  const h = harness();
  h.runner.request('all', 'start');
  const done = h.nextRun();
  h.finishers.shift()!(report({ failure: { code: 'conflict', message: 'held by kbctx sync' } }));
  await done;
  assert.equal(h.runner.snapshot().state, 'idle');
  assert.equal(h.runner.snapshot().lastError, null);
  assert.ok(h.runner.snapshot().nextRunAt, 'tried again shortly');
  h.runner.close();
});

it('a sync that throws is a failed run (backoff, status), never an unhandled rejection', async () => {
  let ran: () => void = () => {};
  const runner = new ConnectorRunner({
    label: 'filesystem:docs',
    intervalSecs: 0,
    failedReport,
    sync: () => Promise.reject(new KbctxError('unavailable', 'PostgreSQL at 127.0.0.1:5432 is unreachable')),
    onRun: () => ran(),
  });
  const done = new Promise<void>((resolve) => (ran = resolve));
  runner.request('all', 'request');
  await done;
  const status = runner.snapshot();
  assert.equal(status.state, 'failed');
  assert.equal(status.lastError, 'unavailable: PostgreSQL at 127.0.0.1:5432 is unreachable');
  assert.ok(status.nextRunAt, 'retried with backoff');
  runner.close();
  await runner.idle();
});
