// The metrics plugin's part of the HTTP server: GET /metrics (behind the token unless
// `[server] metrics_public`), and the observer of every answered request (HttpSurface.onResponse). `scrape` is
// this process's figures, or, in a `[server] workers` worker, every process's (the primary aggregates them).
import type { HttpApp, HttpReply, HttpRequest, HttpSurface } from '../transport-http/api.ts';
import type { Recorder } from './recorder.ts';

export interface MetricsAccess {
  /** `[server] metrics_public`: answered without the token. */
  public: boolean;
}

// The hook point for scoped tokens (issue 34): when tokens carry scopes, the `admin` check goes here, in `register`
// (behind the token: every request reaching it passed Bearer auth, so today any valid token may scrape).
export function metricsSurface(recorder: Recorder, scrape: () => Promise<string>, access: MetricsAccess): HttpSurface {
  const route = (app: HttpApp): void => {
    app.get('/metrics', async (_request, reply) => {
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
