// `kbctx serve stdio --attach <url>` (ADR 0218): relays newline-delimited JSON-RPC from stdin to a running
// server's Streamable HTTP MCP endpoint, one POST per message, and writes what comes back (a JSON body or
// each event of an SSE body) to stdout. Loads node:http(s) and its own two helpers only, never the kernel,
// config, stores or models, so it starts in a fraction of the time and memory of a server.
// When the server is unreachable, each request is answered with a JSON-RPC error naming the URL and a probe
// retries with exponential backoff (timers only: no busy loop). stdout carries the protocol; logs go to stderr.
import type http from 'node:http';
import type { Readable, Writable } from 'node:stream';
import { type JsonRpcMessage, requestHeaders, type SessionState } from './request-headers.ts';
import { SseReader } from './sse-reader.ts';

export interface BridgeOptions {
  url: URL;
  token: string | undefined;
  /** The variable the token came from, named in the error for a refused token. */
  tokenEnv: string | undefined;
  stdin?: Readable;
  stdout?: Writable;
  log?: (line: string) => void;
}

/** JSON-RPC "server error" range: the MCP server cannot be reached or refused the bridge. */
const UNREACHABLE = -32000;
const REFUSED = -32001;
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 30_000;
const CONNECT_TIMEOUT_MS = 10_000;
/** How long answers already under way may take once stdin ends (an open listen stream would never end). */
const END_GRACE_MS = 2_000;

type Reply = { status: number; headers: http.IncomingHttpHeaders; body: http.IncomingMessage };

const isObject = (v: unknown): v is JsonRpcMessage => v !== null && typeof v === 'object' && !Array.isArray(v);
/** The id of a request (a message with a method and an id); undefined for notifications and responses. */
const requestId = (m: unknown): string | number | undefined =>
  isObject(m) && typeof m['method'] === 'string' && (typeof m['id'] === 'string' || typeof m['id'] === 'number')
    ? m['id']
    : undefined;
const errorReply = (id: string | number | null, code: number, message: string): JsonRpcMessage => ({
  jsonrpc: '2.0',
  id,
  error: { code, message },
});

export async function runBridge(options: BridgeOptions): Promise<number> {
  const { url, token } = options;
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  // node:https brings TLS and crypto: loaded only for an https URL (a third of the start-up otherwise). Both are taken
  // with getBuiltinModule, not `import`: an ES import of node:http builds its namespace, which reads http's lazy
  // WebSocket, CloseEvent and MessageEvent exports and so loads undici (~14 MB of RSS, a quarter of the bridge's).
  const client =
    url.protocol === 'https:' ? process.getBuiltinModule('node:https') : process.getBuiltinModule('node:http');
  const agent = new client.Agent({ keepAlive: true });
  const session: SessionState = {};
  const open = new Set<http.ClientRequest>();
  let down = false;
  let retryMs = FIRST_RETRY_MS;
  let probeTimer: NodeJS.Timeout | undefined;
  let closed = false;

  const write = (message: unknown): void => {
    if (!closed) stdout.write(`${JSON.stringify(message)}\n`);
  };

  /** One HTTP request; a stale keep-alive socket (reset on reuse) is retried once on a fresh one. */
  const send = (method: 'POST' | 'GET', body: string | undefined, headers: Record<string, string>): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const req = client.request(url, { method, headers, agent }, (res) => {
        open.delete(req);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res });
      });
      open.add(req);
      req.on('socket', (socket) => {
        if (!socket.connecting) return;
        socket.setTimeout(CONNECT_TIMEOUT_MS, () =>
          req.destroy(new Error(`no connection in ${CONNECT_TIMEOUT_MS} ms`)),
        );
        socket.once('connect', () => socket.setTimeout(0));
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        open.delete(req);
        if (req.reusedSocket && error.code === 'ECONNRESET') send(method, body, headers).then(resolve, reject);
        else reject(error);
      });
      req.end(body);
    });

  const unreachable = (error: Error): string =>
    `kbctx server at ${url.href} is not reachable (${error.message}); ` +
    `start it with \`kbctx serve mcp\` — this bridge keeps retrying`;

  const markDown = (error: Error): void => {
    if (down || closed) return;
    down = true;
    log(`kbctx attach: ${unreachable(error)}`);
    scheduleProbe();
  };
  const markUp = (): void => {
    if (!down) return;
    down = false;
    retryMs = FIRST_RETRY_MS;
    clearTimeout(probeTimer);
    log(`kbctx attach: connected to ${url.href} again`);
  };
  // Backoff: 0.5 s, 1 s, 2 s, … capped at 30 s; any HTTP answer (even 405 to a GET) means the server is up.
  const scheduleProbe = (): void => {
    probeTimer = setTimeout(() => {
      send('GET', undefined, { accept: 'text/event-stream' }).then(
        (reply) => {
          reply.body.destroy();
          markUp();
        },
        () => {
          retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
          if (!closed) scheduleProbe();
        },
      );
    }, retryMs);
    probeTimer.unref();
  };

  /** Delivers a message the server sent; learns the negotiated version and session from an initialize answer. */
  const deliver = (message: unknown, request: unknown, reply: Reply): void => {
    if (
      isObject(request) &&
      request['method'] === 'initialize' &&
      isObject(message) &&
      message['id'] === request['id']
    ) {
      const result = message['result'];
      if (isObject(result) && typeof result['protocolVersion'] === 'string') {
        session.protocolVersion = result['protocolVersion'];
        const sessionId = reply.headers['mcp-session-id'];
        session.sessionId = typeof sessionId === 'string' ? sessionId : undefined;
      }
    }
    write(message);
  };

  const readText = async (body: http.IncomingMessage): Promise<string> => {
    body.setEncoding('utf8');
    let text = '';
    for await (const chunk of body) text += chunk as string;
    return text;
  };

  const forward = async (message: unknown): Promise<void> => {
    const id = requestId(message);
    const isInitialize = isObject(message) && message['method'] === 'initialize';
    const state = isInitialize ? {} : session;
    let reply: Reply;
    try {
      reply = await send('POST', JSON.stringify(message), requestHeaders(message, state, token));
    } catch (error) {
      if (closed) return;
      markDown(error as Error);
      if (id !== undefined) write(errorReply(id, UNREACHABLE, unreachable(error as Error)));
      return;
    }
    markUp();
    const type = String(reply.headers['content-type'] ?? '');
    if (reply.status === 401 || reply.status === 403) {
      const detail = (await readText(reply.body)).slice(0, 300);
      const why =
        `kbctx server at ${url.href} refused the token (${reply.status}): ` +
        (token === undefined
          ? 'none was sent; export KBCTX_TOKEN=<token> or pass --token-env <VARIABLE>'
          : `check the value of ${options.tokenEnv}`);
      log(`kbctx attach: ${why}${detail ? ` — ${detail}` : ''}`);
      if (id !== undefined) write(errorReply(id, REFUSED, why));
      return;
    }
    if (reply.status === 404 && session.sessionId !== undefined) {
      reply.body.resume();
      session.sessionId = undefined;
      if (id !== undefined)
        write(errorReply(id, REFUSED, `kbctx server at ${url.href} ended the MCP session (restarted?): reconnect`));
      return;
    }
    if (type.includes('text/event-stream')) {
      const sse = new SseReader((data) => {
        try {
          deliver(JSON.parse(data), message, reply);
        } catch {
          log(`kbctx attach: skipped an SSE event that is not JSON: ${data.slice(0, 120)}`);
        }
      });
      reply.body.setEncoding('utf8');
      reply.body.on('data', (chunk: string) => sse.push(chunk));
      await new Promise<void>((resolve) => reply.body.on('close', resolve));
      return;
    }
    const text = await readText(reply.body);
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const messages = Array.isArray(parsed) ? parsed : parsed === undefined ? [] : [parsed];
    if (messages.length === 0 && reply.status >= 400 && id !== undefined) {
      write(errorReply(id, UNREACHABLE, `kbctx server at ${url.href} answered ${reply.status}: ${text.slice(0, 300)}`));
      return;
    }
    for (const m of messages) {
      // An error answer the server could not tie to a request (id null) belongs to the one just sent.
      if (isObject(m) && m['id'] === null && m['error'] !== undefined && id !== undefined) m['id'] = id;
      deliver(m, message, reply);
    }
  };

  return new Promise<number>((resolve) => {
    const pending = new Set<Promise<void>>();
    let buffer = '';
    const close = (): void => {
      if (closed) return;
      closed = true;
      clearTimeout(probeTimer);
      for (const req of open) req.destroy();
      agent.destroy();
      stdin.pause();
      resolve(0);
    };
    const onLine = (line: string): void => {
      if (line.trim() === '') return;
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch (error) {
        write(errorReply(null, -32700, `Parse error: ${(error as Error).message}`));
        return;
      }
      const task = forward(message).catch((error: unknown) => {
        log(`kbctx attach: ${(error as Error).message}`);
        const id = requestId(message);
        if (id !== undefined) write(errorReply(id, UNREACHABLE, `kbctx attach: ${(error as Error).message}`));
      });
      pending.add(task);
      void task.finally(() => pending.delete(task));
    };
    stdin.setEncoding('utf8');
    stdin.on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        onLine(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
      }
    });
    // The client closed stdin: let answers already on their way finish, then stop (open SSE streams end with us).
    stdin.on('end', () => {
      onLine(buffer);
      const grace = new Promise((r) => setTimeout(r, END_GRACE_MS).unref());
      void Promise.race([Promise.allSettled([...pending]), grace]).then(close);
    });
    stdout.on('error', close);
    process.once('SIGINT', close);
    process.once('SIGTERM', close);
  });
}
