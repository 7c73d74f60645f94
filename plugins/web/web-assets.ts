// The web page's files, read once at start-up: the browser code in client/ (plain ES modules, served
// as written) and four vendor modules from node_modules. Served under /assets/<content hash>/ so
// every asset can be cached for a year; only index.html is revalidated. No build step (ADR 0090).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface WebAsset {
  body: Buffer;
  contentType: string;
  etag: string;
  /** True for index.html: revalidated on every load; the hashed assets never are. */
  revalidate: boolean;
}

const CLIENT_DIR = fileURLToPath(new URL('./client/', import.meta.url));
const require = createRequire(import.meta.url);

/**
 * Served path under the asset folder → the npm file. Each is a single ES module with no imports but the ones
 * rewritten below.
 */
const VENDOR: Record<string, string> = {
  'vendor/preact.js': 'preact/dist/preact.mjs',
  'vendor/hooks.js': 'preact/hooks/dist/hooks.mjs',
  'vendor/htm.js': 'htm/dist/htm.mjs',
  'vendor/marked.js': 'marked/lib/marked.esm.js',
  'vendor/dompurify.js': 'dompurify/dist/purify.es.mjs',
};

/** The only bare import among the vendor files: preact/hooks imports "preact". */
const VENDOR_REWRITES: Record<string, [RegExp, string]> = {
  'vendor/hooks.js': [/from\s*"preact"/g, 'from"./preact.js"'],
};

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export interface WebAssets {
  /** `/assets/<hash>/`: where index.html points; changes whenever any asset changes. */
  base: string;
  /** Pathname (`/`, `/assets/<hash>/main.js`) → asset. */
  files: Map<string, WebAsset>;
}

export function loadWebAssets(): WebAssets {
  const raw = new Map<string, Buffer>();
  for (const file of listFiles(CLIENT_DIR)) {
    if (file.endsWith('.d.ts') || file === 'tsconfig.json' || file === 'index.html' || !(path.extname(file) in TYPES))
      continue;
    raw.set(file, readFileSync(path.join(CLIENT_DIR, file)));
  }
  for (const [served, npmPath] of Object.entries(VENDOR)) {
    let text = readFileSync(resolvePackageFile(npmPath), 'utf8');
    const rewrite = VENDOR_REWRITES[served];
    if (rewrite) {
      // An upgrade that changes the import would otherwise break the page silently.
      if (!rewrite[0].test(text))
        throw new Error(`web assets: ${npmPath} no longer imports as expected; update VENDOR_REWRITES`);
      text = text.replace(rewrite[0], rewrite[1]);
    }
    raw.set(served, Buffer.from(text.replace(/\n\/\/# sourceMappingURL=.*$/m, '')));
  }
  const hash = createHash('sha256');
  for (const [name, body] of [...raw].sort(([a], [b]) => a.localeCompare(b))) hash.update(name).update(body);
  const base = `/assets/${hash.digest('hex').slice(0, 12)}/`;
  const files = new Map<string, WebAsset>();
  for (const [name, body] of raw) files.set(base + name, toAsset(body, name, false));
  const index = readFileSync(path.join(CLIENT_DIR, 'index.html'), 'utf8').replaceAll('{{ASSETS}}', base);
  files.set('/', toAsset(Buffer.from(index), 'index.html', true));
  return { base, files };
}

function toAsset(body: Buffer, name: string, revalidate: boolean): WebAsset {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"`;
  return { body, contentType: TYPES[path.extname(name)] ?? 'application/octet-stream', etag, revalidate };
}

/**
 * `preact/dist/preact.mjs` → its path in the nearest node_modules (package exports may hide dist files from
 * require.resolve).
 */
function resolvePackageFile(npmPath: string): string {
  const name = npmPath.split('/')[0]!;
  for (const dir of require.resolve.paths(name) ?? []) {
    if (existsSync(path.join(dir, name, 'package.json'))) return path.join(dir, npmPath);
  }
  throw new Error(`web assets: package ${name} is not installed; run npm install`);
}

/** Relative paths with forward slashes, recursively. */
function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}
