// `kbctx serve mcp` as a real process in a workspace: resolves once it prints its addresses, and
// stops it with SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import { KBCTX_BIN, type Workspace } from './workspace.ts';

export interface KbctxServer {
  child: ChildProcess;
  /** Everything printed on stdout up to the `ready` line. */
  stdout: string;
  url: string;
  /** Everything printed on stderr so far (the server's log). */
  stderr(): string;
  exit: Promise<number | null>;
  stop(): Promise<number | null>;
}

/** `ready`: the stdout line that means it serves; its first group is the base URL (default: the MCP endpoint line). */
export function spawnServer(
  ws: Workspace,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  ready = /MCP endpoint: (http:\/\/[^\s]+)\/mcp/,
): Promise<KbctxServer> {
  const child = spawn(process.execPath, [KBCTX_BIN, ...args], {
    cwd: ws.dir,
    env: { ...process.env, KBCTX_CONFIG: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const m = ready.exec(stdout);
      if (m) {
        resolve({
          child,
          stdout,
          url: m[1]!,
          stderr: () => stderr,
          exit,
          stop: () => {
            child.kill('SIGTERM');
            return exit;
          },
        });
      }
    });
    void exit.then((code) => reject(new Error(`server exited ${code}: ${stderr}`)));
  });
}
