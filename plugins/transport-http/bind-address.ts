// `[server].bind` ("host:port", "[::1]:port", port 0 allowed) parsed into host and port, and the
// loopback test that decides whether DNS-rebinding protection applies.
import { isIPv4 } from 'node:net';
import { badRequest } from '../../core/api/plugin.ts';

export interface BindAddress {
  host: string;
  port: number;
}

export function parseBind(bind: string): BindAddress {
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(bind.trim());
  const port = match ? Number(match[3]) : NaN;
  if (!match || port > 65535)
    throw badRequest(`bind address must look like 127.0.0.1:7331 or [::1]:7331, got '${bind}'`, { parameter: 'bind' });
  return { host: match[1] ?? (match[2] || '127.0.0.1'), port };
}

const LOOPBACK_NAMES = new Set(['localhost', '::1', '[::1]']);

/**
 * Loopback means `localhost`, `::1` / `[::1]`, or an IPv4 literal inside 127.0.0.0/8 parsed as an
 * address: `127.0.0.1.evil.com` and `127.evil.com` are names, not loopback (DNS rebinding).
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  return LOOPBACK_NAMES.has(h) || (isIPv4(h) && h.startsWith('127.'));
}

/** The URL form of a listening address (`http://127.0.0.1:7331`, `http://[::1]:7331`). */
export function toHttpUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
