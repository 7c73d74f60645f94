// The Host request header parsed strictly, once per request (RFC 9110 §7.2: uri-host [":" port]):
// the DNS-rebinding guard reads its hostname and the MCP surface builds its request URL from it,
// so the two can never disagree. Anything else (userinfo, lists, spaces, a bad port) is a 400.
import { isIPv6 } from 'node:net';
import { badRequest } from '../../core/api/plugin.ts';

export interface RequestHost {
  /** Lower-cased; an IPv6 literal without its brackets (`::1`). */
  hostname: string;
  /** `host[:port]` as it goes into a URL (`[::1]:7331`, `localhost`). */
  authority: string;
}

// A DNS name or IPv4 literal: dot-separated labels of letters, digits, `-` and `_`, an optional final dot.
// WHATWG URL must accept it too (it rejects `999.999.999.999`, a bad IPv4 address, and IPv6 zone ids).
const NAME = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?$/;
const PORT = /^\d{0,5}$/;
const MAX_NAME = 253;

/** undefined (an HTTP/1.0 request without Host): undefined. Throws bad_request naming `what` when malformed. */
export function parseHostHeader(value: string | undefined, what = 'Host header'): RequestHost | undefined {
  if (value === undefined) return undefined;
  const host = value.toLowerCase();
  const bracketed = host.startsWith('[');
  const end = bracketed ? host.indexOf(']') + 1 : host.lastIndexOf(':') === -1 ? host.length : host.lastIndexOf(':');
  const name = host.slice(0, end);
  const rest = host.slice(end);
  const hostname = bracketed ? name.slice(1, -1) : name;
  const port = rest.slice(1);
  const nameOk =
    (bracketed ? end > 0 && isIPv6(hostname) : hostname.length <= MAX_NAME && NAME.test(hostname)) &&
    URL.canParse(`http://${name}/`);
  if (!nameOk || (rest !== '' && (!rest.startsWith(':') || !PORT.test(port) || Number(port) > 65535))) {
    throw badRequest(`${what} ${JSON.stringify(value.slice(0, 100))} is malformed; expected host or host:port`, {
      parameter: 'host',
    });
  }
  return { hostname, authority: port === '' ? name : `${name}:${port}` };
}
