// A stand-in for the Hugging Face hub on 127.0.0.1:0, so model fetching is tested without the
// internet: `/{owner}/{name}/resolve/{revision}/{file}` answers HEAD and GET; "LFS" files (the .onnx
// ones by default) are a 302 to `/lfs/…` carrying `x-linked-size` and `x-linked-etag` (the sha256),
// as the hub does, and `/lfs/…` honours `Range: bytes=N-`. A file can be served corrupted (other
// bytes than announced), slowly, cut off mid-body (`stopTimes` GETs), or stalled half-way until
// `release()`. Every request is recorded.
import { createHash } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

export interface ServedFile {
  bytes: Buffer;
  lfs: boolean;
  corrupt?: boolean;
  /** Written in pieces of `chunk` bytes with `delayMs` between them. */
  slow?: { chunk: number; delayMs: number };
  /** The next N GETs send half the body, then drop the connection. */
  stopTimes?: number;
  /** GETs send half the body, then wait for release() (a download to kill mid-way). */
  stall?: boolean;
}

export interface HubRequest {
  method: string;
  path: string;
  range: string | null;
  /** The Authorization header, if any. */
  auth: string | null;
  status: number;
}

export interface StandInHub {
  url: string;
  requests: HubRequest[];
  /** Serves every file of a model folder under `id` (`owner/name`), revision `main`. */
  addFolder(id: string, dir: string): Promise<void>;
  file(id: string, path: string): ServedFile;
  /** Ends the stalled bodies of model `id` (they stop half-way) and serves its files whole from now on. */
  release(id: string): void;
  close(): Promise<void>;
}

export async function startStandInHub(): Promise<StandInHub> {
  const repos = new Map<string, Map<string, ServedFile>>();
  const requests: HubRequest[] = [];
  const stalled = new Map<ServerResponse, string>();
  const find = (id: string, path: string): ServedFile | undefined => repos.get(id)?.get(path);

  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const range = req.headers.range ?? null;
    const record = (status: number): void =>
      void requests.push({ method: req.method ?? '', path, range, auth: req.headers.authorization ?? null, status });
    const resolve = /^\/([^/]+\/[^/]+)\/resolve\/main\/(.+)$/.exec(path);
    const lfs = /^\/lfs\/([^/]+\/[^/]+)\/(.+)$/.exec(path);
    const served = resolve ? find(resolve[1]!, resolve[2]!) : lfs ? find(lfs[1]!, lfs[2]!) : undefined;
    if (!served || (lfs && !served.lfs)) {
      record(404);
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Entry not found');
      return;
    }
    if (resolve && served.lfs) {
      record(302);
      const sha = createHash('sha256').update(served.bytes).digest('hex');
      res
        .writeHead(302, {
          location: `/lfs/${resolve[1]}/${resolve[2]}`,
          'x-linked-size': String(served.bytes.length),
          'x-linked-etag': `"${sha}"`,
          etag: `"${sha}"`,
          'content-length': '0',
        })
        .end();
      return;
    }
    const body = served.corrupt ? Buffer.from(served.bytes.map((b) => b ^ 0xff)) : served.bytes;
    const from = range ? Number(/^bytes=(\d+)-$/.exec(range)?.[1] ?? 0) : 0;
    if (from >= body.length && from > 0) {
      record(416);
      res.writeHead(416).end();
      return;
    }
    const status = from > 0 ? 206 : 200;
    record(status);
    const headers: Record<string, string> = {
      'content-length': String(body.length - from),
      'accept-ranges': 'bytes',
      etag: `"${createHash('sha1').update(served.bytes).digest('hex')}"`,
    };
    if (status === 206) headers['content-range'] = `bytes ${from}-${body.length - 1}/${body.length}`;
    res.writeHead(status, headers);
    if (req.method === 'HEAD') return void res.end();
    void send(res, body.subarray(from), served, (r) => stalled.set(r, (resolve ?? lfs)![1]!));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async addFolder(id, dir) {
      const files = new Map<string, ServedFile>();
      for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue;
        const path = relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/');
        files.set(path, { bytes: await readFile(join(dir, path)), lfs: path.endsWith('.onnx') });
      }
      repos.set(id, files);
    },
    file(id, path) {
      const f = find(id, path);
      if (!f) throw new Error(`the stand-in hub serves no ${id}/${path}`);
      return f;
    },
    release(id) {
      for (const f of repos.get(id)?.values() ?? []) f.stall = false;
      for (const [res, of] of stalled) {
        if (of !== id) continue;
        res.destroy();
        stalled.delete(res);
      }
    },
    close: () =>
      new Promise<void>((done) => {
        for (const res of stalled.keys()) res.destroy();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

async function send(
  res: ServerResponse,
  body: Buffer,
  served: ServedFile,
  stall: (res: ServerResponse) => void,
): Promise<void> {
  const half = Math.max(1, Math.floor(body.length / 2));
  if (served.stall) {
    res.write(body.subarray(0, half));
    stall(res);
    return;
  }
  if (served.stopTimes && served.stopTimes > 0) {
    served.stopTimes--;
    res.write(body.subarray(0, half), () => setTimeout(() => res.destroy(), 20));
    return;
  }
  if (served.slow) {
    for (let at = 0; at < body.length; at += served.slow.chunk) {
      if (res.destroyed) return;
      res.write(body.subarray(at, at + served.slow.chunk));
      await new Promise((r) => setTimeout(r, served.slow!.delayMs));
    }
    res.end();
    return;
  }
  res.end(body);
}
