// Who asked for a search: the surface (REST, MCP, the web page, the CLI) and the token's name, carried
// through a request's async calls (AsyncLocalStorage) so the search use-case can tell `searched` taps
// without every layer between a transport and the search passing it on. Labels only: never a secret.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AccessScope } from '../domain/access-scope.ts';

export type Surface = 'rest' | 'mcp' | 'web' | 'cli';

export interface RequestOrigin {
  /** Absent: not known (a plugin's `ctx.search` from a hook outside any request). */
  readonly surface?: Surface | undefined;
  /** The name of the token the caller authenticated with (`default`: `[server] auth_token_env`); null: no auth. */
  readonly token?: string | null | undefined;
  /** What the caller's token may see and do (`[server.tokens.<name>]`, ADR 0223); absent: everything. */
  readonly scope?: AccessScope | undefined;
}

const storage = new AsyncLocalStorage<RequestOrigin>();

/** Runs `fn` with `origin` merged over the enclosing one (an inner surface keeps the outer token). */
export function withRequestOrigin<T>(origin: RequestOrigin | undefined, fn: () => T): T {
  if (origin === undefined) return fn();
  const outer = storage.getStore();
  return storage.run(outer ? { ...outer, ...definedOf(origin) } : origin, fn);
}

/** The origin of the request this call belongs to; `{}` outside any. */
export const requestOrigin = (): RequestOrigin => storage.getStore() ?? {};

const definedOf = (origin: RequestOrigin): RequestOrigin =>
  Object.fromEntries(Object.entries(origin).filter(([, v]) => v !== undefined));
