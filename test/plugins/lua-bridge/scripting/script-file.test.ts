import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { MAX_SCRIPT_BYTES, readScriptFile } from '../../../../plugins/lua-bridge/scripting/script-file.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'kbctx-script-file-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('readScriptFile (what a worker runs, from the config or a test command)', () => {
  it('reads a regular file', () => {
    writeFileSync(path.join(dir, 'ok.lua'), 'tool = {}\n');
    assert.equal(readScriptFile(path.join(dir, 'ok.lua')), 'tool = {}\n');
  });

  it('refuses a FIFO without blocking on it, a device without reading it, and a file over the limit', () => {
    const fifo = path.join(dir, 'pipe.lua');
    execFileSync('mkfifo', [fifo]);
    assert.throws(() => readScriptFile(fifo), /pipe\.lua is not a regular file \(a named pipe\)/);
    assert.throws(() => readScriptFile('/dev/zero'), /\/dev\/zero is not a regular file \(a device\)/);
    writeFileSync(path.join(dir, 'huge.lua'), Buffer.alloc(MAX_SCRIPT_BYTES + 1, 0x20));
    assert.throws(() => readScriptFile(path.join(dir, 'huge.lua')), /huge\.lua is too large for a script/);
  });
});
