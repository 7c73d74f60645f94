// Test workspaces: a temp folder with files, a config, and the real `kbctx` CLI spawned as a process.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { UserIds } from './unprivileged-user.ts';
import type { SyncReportWire } from '../../plugins/cli/sync-wire.ts';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const KBCTX_BIN = path.join(REPO_ROOT, 'bin/kbctx.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** One connector's entry in `kbctx sync --json` (the cli plugin's wire shape). */
export type SyncReportJson = SyncReportWire;

export class Workspace {
  readonly dir: string;

  constructor(prefix = 'kbctx-test-') {
    this.dir = mkdtempSync(path.join(tmpdir(), prefix));
  }

  path(...parts: string[]): string {
    return path.join(this.dir, ...parts);
  }

  write(relative: string, content: string | Uint8Array): string {
    const file = this.path(relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
    return file;
  }

  remove(relative: string): void {
    rmSync(this.path(relative), { recursive: true, force: true });
  }

  /** Writes config/kbctx.toml (the default config location). */
  config(toml: string): void {
    this.write('config/kbctx.toml', toml);
  }

  /** Spawns the real CLI with this workspace as working directory. */
  kbctx(
    args: string[],
    options: { env?: NodeJS.ProcessEnv; input?: string; user?: UserIds | null } = {},
  ): Promise<CliResult> {
    return runKbctx(args, { cwd: this.dir, ...options });
  }

  /** Runs `kbctx sync <target> --json` and parses the per-connector reports. */
  async syncJson(
    target: string,
    options: { env?: NodeJS.ProcessEnv; user?: UserIds | null } = {},
  ): Promise<{ code: number; reports: SyncReportJson[]; stderr: string }> {
    const r = await this.kbctx(['sync', target, '--json'], options);
    return {
      code: r.code,
      reports: (JSON.parse(r.stdout) as { connectors: SyncReportJson[] }).connectors,
      stderr: r.stderr,
    };
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** `user`: run the CLI as this uid/gid (see unprivileged-user.ts). */
export function runKbctx(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; input?: string; user?: UserIds | null },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [KBCTX_BIN, ...args], {
      cwd: options.cwd,
      ...(options.user ?? {}),
      env: { ...process.env, KBCTX_CONFIG: '', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
