// DNS-rebinding protection for a loopback bind (SPEC §5): the Host header must name a loopback
// address or a name from [server].allowed_hosts, and a browser Origin must be loopback, an allowed
// host, or listed explicitly in [server].cors_origins. Anything else is 403 before routing. On every
// bind the Host header is parsed (host-header.ts): a malformed one is 400.
import type { IncomingHttpHeaders } from 'node:http';
import { KbctxError } from '../../core/index.ts';
import { isLoopbackHost } from './bind-address.ts';
import { parseHostHeader, type RequestHost } from './host-header.ts';

export interface HostPolicy {
  /** False on a non-loopback bind (0.0.0.0, a LAN address): the operator chose remote access. */
  enabled: boolean;
  allowedHosts: readonly string[];
  corsOrigins: readonly string[];
}

/**
 * The guard returns the parsed Host (undefined when the request had none), the one the request URL is
 * built from. The last accepted Host value is remembered with its parse (a client sends the same Host
 * on every request): the strict parse runs again only for a different value. A refused Host is never
 * remembered, and the Origin check runs on every request.
 */
export function createHostGuard(policy: HostPolicy): (headers: IncomingHttpHeaders) => RequestHost | undefined {
  let lastValue: string | undefined;
  let lastHost: RequestHost | undefined;
  const accepted = (
    value: string | undefined,
    check: (host: RequestHost | undefined) => RequestHost | undefined,
  ): RequestHost | undefined => {
    if (value !== undefined && value === lastValue) return lastHost;
    const host = check(parseHostHeader(value));
    if (value !== undefined) {
      lastValue = value;
      lastHost = Object.freeze(host);
    }
    return host;
  };
  if (!policy.enabled) return (headers) => accepted(headers.host, (host) => host);
  const allowed = new Set(policy.allowedHosts.map((h) => h.toLowerCase()));
  const explicitOrigins = new Set(
    policy.corsOrigins.filter((o) => o !== '*').map((o) => o.toLowerCase().replace(/\/$/, '')),
  );
  const hostOk = (hostname: string): boolean => isLoopbackHost(hostname) || allowed.has(hostname.toLowerCase());
  const checkHost = (host: RequestHost | undefined): RequestHost => {
    if (!host || !hostOk(host.hostname)) {
      throw new KbctxError(
        'forbidden',
        `Host '${host?.authority ?? ''}' is not allowed on a loopback ` +
          `server; add it to [server].allowed_hosts to accept it`,
      );
    }
    return host;
  };
  return (headers) => {
    const host = accepted(headers.host, checkHost);
    const origin = headers.origin;
    if (origin === undefined || explicitOrigins.has(origin.toLowerCase())) return host;
    let originHost: string;
    try {
      originHost = new URL(origin).hostname;
    } catch {
      throw new KbctxError('forbidden', `Origin '${origin}' is not a valid origin`);
    }
    if (!hostOk(originHost.replace(/^\[|\]$/g, ''))) {
      throw new KbctxError(
        'forbidden',
        `Origin '${origin}' is not allowed on a loopback server; list it in [server].cors_origins to accept it`,
      );
    }
    return host;
  };
}
