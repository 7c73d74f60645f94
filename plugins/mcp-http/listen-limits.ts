// Caps on open 2026-07-28 `subscriptions/listen` streams, each of which holds a response open for as
// long as the client likes: at most `perServer` in this process and `perClient` per client (its Bearer
// token when it sends one, else its remote address). Over a cap: too_many_requests naming the limit.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { KbctxError } from '../../core/api/plugin.ts';
import type { ServerConfig } from '../transport-http/api.ts';

export interface ListenLimits {
  /** [server].max_listen_streams */
  perServer: number;
  /** [server].max_listen_streams_per_client */
  perClient: number;
}

/** The caps of a [server] section. */
export const listenLimitsOf = (server: ServerConfig): ListenLimits => ({
  perServer: server.maxListenStreams,
  perClient: server.maxListenStreamsPerClient,
});

export class ListenStreams {
  private total = 0;
  private readonly byClient = new Map<string, number>();

  private readonly limits: ListenLimits;

  constructor(limits: ListenLimits) {
    this.limits = limits;
  }

  /** Reserves a stream for `client`; returns its release, to call once when the response closes. */
  admit(client: string): () => void {
    const mine = this.byClient.get(client) ?? 0;
    if (mine >= this.limits.perClient) {
      throw new KbctxError(
        'too_many_requests',
        `too many open subscriptions/listen streams from this client: the limit is ${this.limits.perClient} ` +
          `([server].max_listen_streams_per_client); close one first`,
      );
    }
    if (this.total >= this.limits.perServer) {
      throw new KbctxError(
        'too_many_requests',
        `too many open subscriptions/listen streams on this server: the limit is ${this.limits.perServer} ` +
          `([server].max_listen_streams); try again later`,
      );
    }
    this.total++;
    this.byClient.set(client, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = (this.byClient.get(client) ?? 1) - 1;
      if (left === 0) this.byClient.delete(client);
      else this.byClient.set(client, left);
    };
  }

  /** Open streams (for tests and measurements). */
  get open(): number {
    return this.total;
  }
}

/** Who a client is for the per-client cap: a hash of its Authorization header, else its address. */
export function listenClientKey(req: IncomingMessage): string {
  const auth = req.headers.authorization;
  if (auth) return `token:${createHash('sha256').update(auth).digest('hex').slice(0, 32)}`;
  return `address:${req.socket.remoteAddress ?? ''}`;
}
