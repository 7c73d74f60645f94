// `[db]` (the kernel's keys, owned-keys.ts; the stores' keys, their plugins' `storeConfigs`, ADR 0239): which store
// opens the index. The stores claim what they read (ADR 0241): a url's scheme, a `path` that is not a local file
// (object storage); the engine is the one the config names, else the one the url or path implies, else `sqlite`.
// Names no store but the default.
import { configError } from '../domain/errors.ts';
import type { StoreConfigSection } from './config-section.ts';
import type { RawDb } from './owned-keys.ts';
import type { Config } from './types.ts';

/** The default engine, when nothing is claimed: the bundled SQLite store. */
const DEFAULT_ENGINE = 'sqlite';
const WHERE_URL = 'db.url (or KBCTX_DATABASE_URL)';

/** Engine → its `[db]` section (with its claims): the bundled stores', and the configured ones' when applied. */
export type StoreClaims = ReadonlyMap<string, StoreConfigSection>;

/**
 * `[db]`: the engine defaults to what the url or path implies; one the url or path contradicts is refused. `stores`:
 * what the store sections' `toConfig` made of their keys (`poolSize`, `keywordEngine`, …). `url`: as written.
 */
export function dbConfig(
  db: RawDb,
  written: string | undefined,
  abs: (p: string) => string,
  claims: StoreClaims,
  stores: Readonly<Record<string, unknown>>,
): Config['db'] {
  const url = written === undefined || written.trim() === '' ? null : written.trim();
  const urlOwner = url === null ? undefined : urlEngine(url, db.engine?.trim(), claims);
  const pathOwner = find(claims, (s) => s.remotePath?.claims(db.path) === true);
  const engine = db.engine?.trim() || urlOwner || pathOwner || DEFAULT_ENGINE;
  checkEngine(engine, { url, urlOwner, pathOwner, path: db.path }, claims);
  return { ...stores, engine, path: pathOwner ? db.path.trim() : abs(db.path), url } as Config['db'];
}

/** The engine claiming the url's scheme; undefined for an engine the bundled set does not know (its plugin checks). */
function urlEngine(url: string, named: string | undefined, claims: StoreClaims): string | undefined {
  const owners = [...claims].filter(([, s]) => s.url !== undefined);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw configError(`${WHERE_URL} is not a URL: expected ${owners.map(([, s]) => s.url?.example).join(' or ')}`);
  }
  const owner = owners.find(([, s]) => s.url?.schemes.includes(parsed.protocol))?.[0];
  if (owner !== undefined || (named && !claims.has(named))) return owner;
  const schemes = owners.map(([, s]) => `${s.url?.schemes[0]}//`).join(' or ');
  throw configError(
    `${WHERE_URL} must be a ${schemes} URL, not ${parsed.protocol}//…; for ${labelOf(DEFAULT_ENGINE, claims)} ` +
      'set db.path',
  );
}

function checkEngine(
  engine: string,
  found: { url: string | null; urlOwner: string | undefined; pathOwner: string | undefined; path: string },
  claims: StoreClaims,
): void {
  const { url, urlOwner, pathOwner } = found;
  if (urlOwner !== undefined && engine !== urlOwner) {
    throw configError(
      `db.engine = "${engine}" contradicts ${WHERE_URL}, ${claims.get(urlOwner)?.url?.kind}: ` +
        `set engine = "${urlOwner}" or remove the url`,
    );
  }
  const own = claims.get(engine);
  if (url === null && own?.url) throw configError(`db.engine = "${engine}" needs ${WHERE_URL}: ${own.url.example}`);
  // An engine the bundled set does not know may read such a path too (its plugin checks it).
  if (pathOwner !== undefined && engine !== pathOwner && own && !own.remotePath?.claims(found.path)) {
    const owner = claims.get(pathOwner);
    throw configError(
      `db.path = "${found.path}" is ${owner?.remotePath?.kind}, which only the ${labelOf(pathOwner, claims)} store ` +
        `reads: set db.engine = "${pathOwner}" (or leave engine out), or give a local path for ` +
        `${own.localPath ?? labelOf(engine, claims)}`,
    );
  }
}

/**
 * A configured store plugin's url claim, checked when it is applied (the config loader knew only the bundled stores'):
 * an engine with one needs a url of its schemes; one without reads none.
 */
export function checkUrlClaim(engine: string, section: StoreConfigSection, url: string | null): void {
  if (url === null) {
    if (section.url) throw configError(`db.engine = "${engine}" needs ${WHERE_URL}: ${section.url.example}`);
    return;
  }
  if (!section.url) throw configError(`db.engine = "${engine}" reads no ${WHERE_URL}: remove the url`);
  const { protocol } = new URL(url); // a URL: the config loader checked it
  if (!section.url.schemes.includes(protocol))
    throw configError(`${WHERE_URL} must be a ${section.url.schemes[0]}// URL, not ${protocol}//…`);
}

const labelOf = (engine: string, claims: StoreClaims): string => claims.get(engine)?.label ?? engine;

function find(claims: StoreClaims, test: (s: StoreConfigSection) => boolean): string | undefined {
  for (const [engine, section] of claims) if (test(section)) return engine;
  return undefined;
}
