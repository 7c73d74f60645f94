// Fetch progress: a redrawn bar with bytes, rate and ETA on a terminal; plain periodic lines otherwise.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDownloadProgress } from '../../../plugins/models/download-progress.ts';

it('on a terminal: a bar (bytes, rate, ETA) redrawn in place, then the summary on its own line', () => {
  let out = '';
  const p = createDownloadProgress(true, (t) => void (out += t));
  p.start('acme/model', 2048, 2);
  p.file('onnx/model.onnx', 1024);
  p.done('acme/model ready');
  assert.match(out, /^models: fetching acme\/model \(2 file\(s\), 2\.0 KiB\)\n/);
  assert.match(
    out,
    // eslint-disable-next-line no-control-regex -- the terminal's erase-line sequence is the point
    /\r\x1b\[2Kacme\/model \[#{15}\.{15}\] 1\.0 KiB\/2\.0 KiB \(50%\) {2}[\d.]+ (B|KiB|MiB)\/s {2}ETA /,
  );
  assert.match(out, /\nmodels: acme\/model ready\n$/);
});

it('not a terminal: a line every interval while bytes arrive, stopped by done()', async () => {
  let out = '';
  const p = createDownloadProgress(false, (t) => void (out += t), 10);
  p.start('acme/model', 4096, 1);
  p.file('onnx/model.onnx', 2048);
  await sleep(50);
  p.done('acme/model ready');
  const lines = out.split('\n').filter((l) => l.startsWith('models: acme/model 2.0 KiB/4.0 KiB (50%)'));
  assert.ok(lines.length >= 1, out);
  const after = out.length;
  await sleep(30);
  assert.equal(out.length, after, 'no line after done()');
});
