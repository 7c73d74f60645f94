// The live index over REST (docs/sync.md): GET /sync/status, POST /sync/{connector}. A trigger from a
// non-loopback client is refused unless the server requires a token (then the auth guard vouched for it),
// and a trigger must be JSON: a page on another (loopback) origin cannot send that without a CORS preflight.
import { KbctxError } from '../../core/api/plugin.ts';
import type { SyncControl } from './api.ts';
import { requireJsonPost, type HttpRoute } from '../transport-http/api.ts';
import { syncStatusToWire } from './status-wire.ts';

export function syncRoutes(control: SyncControl, options: { tokenRequired: boolean }): HttpRoute[] {
  return [
    { method: 'GET', path: '/sync/status', handle: async () => syncStatusToWire(await control.status()) },
    {
      method: 'POST',
      path: '/sync/:connector',
      handle: async (r) => {
        requireJsonPost('POST', '/sync/{connector}', r.contentType);
        if (!options.tokenRequired && !isLoopbackAddress(r.remoteAddress)) {
          throw new KbctxError(
            'forbidden',
            'POST /sync/{connector} is only accepted from this machine unless the server requires a token ' +
              '([server].auth_token_env)',
          );
        }
        return syncStatusToWire([await control.trigger(r.params['connector']!)]).connectors[0];
      },
    },
  ];
}

/** The peer address of a socket: 127.0.0.0/8, ::1, or their IPv4-mapped form. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}
