// What RFC 9112 §3.2 asks of a request's target and Host before the Host guard looks at them: more
// than one Host header is a 400, and an absolute-form target (`GET http://host:port/path`) names the
// host itself (§3.2.2: its authority replaces Host), so its authority becomes the request's Host and
// its path the request's URL. The guard then checks that authority by the one Host policy.
import type { IncomingMessage } from 'node:http';
import { badRequest } from '../../core/api/plugin.ts';
import { parseHostHeader } from './host-header.ts';

const ABSOLUTE = /^(https?):\/\/([^/?#]*)([^#]*)$/i;

/**
 * Throws bad_request for a duplicate Host or a malformed absolute-form target; rewrites an absolute-form request in
 * place.
 */
export function normaliseRequestTarget(req: Pick<IncomingMessage, 'url' | 'headers' | 'rawHeaders'>): void {
  if (countHostLines(req.rawHeaders) > 1) {
    throw badRequest('the request has more than one Host header (RFC 9112 §3.2); send exactly one', {
      parameter: 'host',
    });
  }
  const url = req.url ?? '/';
  if (url.startsWith('/') || url === '*') return;
  const match = ABSOLUTE.exec(url);
  if (!match)
    throw badRequest(
      `request target ${JSON.stringify(url.slice(0, 100))} is malformed; expected /path or http://host[:port]/path`,
    );
  const authority = match[2]!;
  parseHostHeader(authority, 'request target authority'); // the strict parse: userinfo, lists, a bad port are 400
  req.headers.host = authority;
  req.url = match[3] === '' ? '/' : match[3]!.startsWith('/') ? match[3]! : `/${match[3]!}`;
}

function countHostLines(raw: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') n++;
  }
  return n;
}
