// Matches a request path against the route table: the route, or why not (404 unknown path,
// 405 known path with another method, with the methods that are allowed).
import { KbctxError } from '../../core/domain/errors.ts';
import type { Route } from './rest-routes.ts';

export interface Match {
  route: Route;
  params: Record<string, string>;
}

export class Router {
  private readonly routes: { route: Route; segments: string[] }[];

  constructor(routes: readonly Route[]) {
    this.routes = routes.map((route) => ({ route, segments: route.path.split('/').slice(1) }));
  }

  /** Exact paths win over patterns because the table lists them first. */
  match(method: string, pathname: string): Match {
    const parts = pathname.split('/').slice(1);
    const allowed: string[] = [];
    for (const { route, segments } of this.routes) {
      const params = matchSegments(segments, parts);
      if (!params) continue;
      if (route.method === method || (method === 'HEAD' && route.method === 'GET')) return { route, params };
      allowed.push(route.method);
    }
    if (allowed.length > 0) {
      throw new KbctxError('method_not_allowed', `${method} is not allowed on ${pathname}; use ${[...new Set(allowed)].join(' or ')}`, {
        details: { allow: [...new Set(allowed)].join(', ') },
      });
    }
    throw new KbctxError('not_found', `no route for ${method} ${pathname}; see GET /tools/list and the README for the API`);
  }
}

function matchSegments(segments: readonly string[], parts: readonly string[]): Record<string, string> | null {
  if (segments.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    const p = parts[i]!;
    if (s.startsWith(':')) {
      if (p === '') return null;
      try {
        params[s.slice(1)] = decodeURIComponent(p);
      } catch {
        return null;
      }
    } else if (s !== p) return null;
  }
  return params;
}
