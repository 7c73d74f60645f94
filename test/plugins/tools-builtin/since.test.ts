import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KbctxError } from '../../../core/api/plugin.ts';
import { parseSince } from '../../../plugins/tools-builtin/since.ts';

const NOW = new Date('2026-03-10T12:00:00Z');

describe('parseSince', () => {
  it('reads dates, date-times and durations as UTC instants', () => {
    assert.equal(parseSince('2026-03-01', NOW), '2026-03-01T00:00:00.000Z');
    assert.equal(parseSince('2026-03-01T09:30:00+02:00', NOW), '2026-03-01T07:30:00.000Z');
    assert.equal(parseSince('2026-03-01 09:30', NOW), '2026-03-01T09:30:00.000Z');
    assert.equal(parseSince('7d', NOW), '2026-03-03T12:00:00.000Z');
    assert.equal(parseSince('12h', NOW), '2026-03-10T00:00:00.000Z');
    assert.equal(parseSince('2w', NOW), '2026-02-24T12:00:00.000Z');
  });

  it('rejects anything else naming the parameter', () => {
    for (const bad of ['yesterday', '7 days', '2026-13-45', '-3d', '']) {
      assert.throws(
        () => parseSince(bad, NOW),
        (e: unknown) => e instanceof KbctxError && e.code === 'bad_request' && /since/.test(e.message),
        bad,
      );
    }
  });
});
