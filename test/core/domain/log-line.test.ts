import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_LOG_LINE, toLogLine, toSafeLines } from '../../../core/domain/log-line.ts';

it('escapes control characters, line separators and bidi overrides; leaves other text alone', () => {
  assert.equal(
    toLogLine('a\nb\r\tc\u001b[31m\u0000\u009b\u2028\u202e é 🦊 \\n'),
    'a\\nb\\r\\tc\\u001b[31m\\u0000\\u009b\\u2028\\u202e é 🦊 \\n',
  );
});

it('caps the line and says how much was cut', () => {
  const line = toLogLine('y'.repeat(MAX_LOG_LINE + 10));
  assert.equal(line, `${'y'.repeat(MAX_LOG_LINE)}… (10 more characters)`);
  assert.equal(toLogLine('y'.repeat(MAX_LOG_LINE)), 'y'.repeat(MAX_LOG_LINE));
});

describe('toSafeLines (CLI errors, issue 29)', () => {
  it('caps and escapes each line, keeping the newlines between them', () => {
    const long = 'x'.repeat(MAX_LOG_LINE + 10);
    assert.equal(
      toSafeLines(`first\n${long}\nthird\u001b[31m`),
      `first\n${'x'.repeat(MAX_LOG_LINE)}… (10 more characters)\nthird\\u001b[31m`,
    );
  });
});
