// DNS-rebinding protection for a loopback bind (SPEC §5): the Host header must name a loopback
// address or a name from [server].allowed_hosts, and a browser Origin must be loopback, an allowed
// host, or listed explicitly in [server].cors_origins. Anything else is 403 before routing.
import type { IncomingHttpHeaders } from 'node:http';
import { KbctxError } from '../core/errors.ts';
import { isLoopbackHost } from './bind-address.ts';

export interface HostPolicy {
  /** False on a non-loopback bind (0.0.0.0, a LAN address): the operator chose remote access. */
  enabled: boolean;
  allowedHosts: readonly string[];
  corsOrigins: readonly string[];
}

export function createHostGuard(policy: HostPolicy): (headers: IncomingHttpHeaders) => void {
  if (!policy.enabled) return () => {};
  const allowed = new Set(policy.allowedHosts.map((h) => h.toLowerCase()));
  const explicitOrigins = new Set(policy.corsOrigins.filter((o) => o !== '*').map((o) => o.toLowerCase().replace(/\/$/, '')));
  const hostOk = (hostname: string): boolean => isLoopbackHost(hostname) || allowed.has(hostname.toLowerCase());
  return (headers) => {
    const host = headers.host;
    if (!host || !hostOk(hostnameOf(host))) {
      throw new KbctxError('forbidden', `Host '${host ?? ''}' is not allowed on a loopback server; add it to [server].allowed_hosts to accept it`);
    }
    const origin = headers.origin;
    if (origin === undefined) return;
    if (explicitOrigins.has(origin.toLowerCase())) return;
    let originHost: string;
    try {
      originHost = new URL(origin).hostname;
    } catch {
      throw new KbctxError('forbidden', `Origin '${origin}' is not a valid origin`);
    }
    if (!hostOk(originHost.replace(/^\[|\]$/g, ''))) {
      throw new KbctxError('forbidden', `Origin '${origin}' is not allowed on a loopback server; list it in [server].cors_origins to accept it`);
    }
  };
}

/** `example.com:7331` → `example.com`; `[::1]:7331` → `::1`. */
function hostnameOf(host: string): string {
  const h = host.trim();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']'));
  const colon = h.lastIndexOf(':');
  return colon === -1 ? h : h.slice(0, colon);
}
