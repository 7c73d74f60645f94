// The metrics plugin's part of the HTTP server: GET /metrics (behind a token with the admin scope unless
// `[server] metrics_public`), and the observer of every answered request (HttpSurface.onResponse). `scrape` is
// this process's figures, or, in a `[server] workers` worker, every process's (the primary aggregates them).
import {
  requireAdmin,
  type HttpApp,
  type HttpReply,
  type HttpRequest,
  type HttpSurface,
} from '../transport-http/api.ts';
import type { Recorder } from './recorder.ts';

export interface MetricsAccess {
  /** `[server] metrics_public`: answered without the token. */
  public: boolean;
}

// Behind the token, a scrape needs its `admin` scope (ADR 0223): 403 naming the token otherwise.
export function metricsSurface(recorder: Recorder, scrape: () => Promise<string>, access: MetricsAccess): HttpSurface {
  const route = (app: HttpApp): void => {
    app.get('/metrics', access.public ? {} : { onRequest: requireAdmin }, async (_request, reply) => {
      const body = await scrape();
      return reply.type(recorder.contentType).send(body);
    });
  };
  return {
    ...(access.public ? { registerPublic: route } : { register: route }),
    onResponse: (request: HttpRequest, reply: HttpReply) => recorder.httpRequest(request, reply),
    describe: (base) => [`Metrics: ${base}/metrics${access.public ? ' (no token needed)' : ''}`],
  };
}
