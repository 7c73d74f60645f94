// fast-check generators for hostile HTTP traffic against kbctx: every REST route and MCP method with
// wrong types, missing fields, unicode and NUL, huge and deeply nested values, broken JSON, invalid
// JSON-RPC, batches, unknown methods and protocol versions, and (1 in 20) a hostile Host header.
// Requests are plain data (FuzzRequest).
import fc from 'fast-check';

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Raw body text (may be invalid JSON on purpose); undefined: no body. */
  body: string | undefined;
}

/** `levels` nested arrays or objects around a scalar, as JSON text (built without recursion). */
const nestedText = (levels: number, objects: boolean): string =>
  objects ? `${'{"k":'.repeat(levels)}1${'}'.repeat(levels)}` : `${'['.repeat(levels)}1${']'.repeat(levels)}`;

/** Strings that stress parsers and SQL: unicode, NUL, FTS operators, LIKE/GLOB metacharacters, long ones. */
const hostileString = fc.oneof(
  { weight: 5, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\u0000',
      'a\u0000b',
      '"',
      '*',
      'NEAR(a b)',
      'fox AND (',
      '%_%',
      '[*?]',
      '-',
      '🦊🦊',
      'e\u0301',
      '\uD800',
      'SELECT 1;--',
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 70_000 }).map((n) => 'x'.repeat(n)) },
);

/** Any JSON value a client might send for a parameter, as JSON text. */
const valueText: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: hostileString.map((s) => JSON.stringify(s)) },
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('null', 'true', '0', '-1', '1.5', '1e308', '-0', '12345678901234567890', '[]', '{}'),
  },
  // Mostly around the Lua stack's old breaking point (~20) and the limit (32); sometimes absurd.
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 1, max: 40 }) }, fc.integer({ min: 1, max: 6000 })),
        fc.boolean(),
      )
      .map(([n, o]) => nestedText(n, o)),
  },
);

const FIELDS = [
  'query',
  'mode',
  'limit',
  'source',
  'id',
  'text',
  'x',
  'who',
  'topic',
  'explain',
  'extra',
  '__proto__',
  'constructor',
  '',
];

/** A JSON object body with a random subset of the known fields, plus the odd unknown one. */
const objectBody = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 8 })), valueText), { maxLength: 5 })
  .map((pairs) => `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`);

const restBody: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 8, arbitrary: objectBody },
  { weight: 2, arbitrary: valueText },
  {
    weight: 1,
    arbitrary: fc.constantFrom(undefined, '', '{', '{"query":', 'nope', '\u0000', '{"a":1}{"b":2}', '\uFEFF{}'),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
);

const PATHS = [
  '/health',
  '/tools/search',
  '/tools/get',
  '/tools/sources',
  '/tools/list',
  '/tools/shout',
  '/tools/echo',
  '/tools/nope',
  '/agents/list',
  '/agents/helper/prompt',
  '/agents/greeter/prompt',
  '/agents/nobody/prompt',
  '/',
  '/tools/',
  '/tools//x',
  '/tools/%ZZ',
  '/tools/%00',
  '/tools/search?x=1',
  '/../etc/passwd',
  '/mcp/extra',
];

const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/vnd.api+json',
      '',
    ),
  },
);

/** Routes with their own method (most traffic reaches the handlers), and now and then any method on any path. */
const ROUTES: [string, string][] = [
  ['GET', '/health'],
  ['POST', '/tools/search'],
  ['POST', '/tools/search'],
  ['POST', '/tools/get'],
  ['GET', '/tools/sources'],
  ['GET', '/tools/list'],
  ['POST', '/tools/shout'],
  ['POST', '/tools/shout'],
  ['POST', '/tools/echo'],
  ['GET', '/agents/list'],
  ['POST', '/agents/helper/prompt'],
  ['POST', '/agents/greeter/prompt'],
];
const route = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...ROUTES) },
  {
    weight: 2,
    arbitrary: fc.tuple(
      fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH'),
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...PATHS) },
        { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((s) => `/tools/${encodeURIComponent(s)}`) },
      ),
    ),
  },
);

export const restRequest: fc.Arbitrary<FuzzRequest> = fc.record({ route, type: contentType, body: restBody }).map(
  ({ route: [method, path], type, body }): FuzzRequest => ({
    method,
    path,
    headers: type ? { 'content-type': type } : {},
    body: method === 'GET' || method === 'HEAD' ? undefined : body,
  }),
);

const MCP_METHODS = [
  'initialize',
  'notifications/initialized',
  'ping',
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'completion/complete',
  'logging/setLevel',
  'server/discover',
  'nope/nope',
  '',
  'rpc.x',
];

const paramsFor = (method: string): fc.Arbitrary<string | undefined> => {
  const tool = fc.constantFrom('search', 'get', 'sources', 'shout', 'echo', 'nope', '');
  const specific: Record<string, fc.Arbitrary<string>> = {
    'tools/call': fc
      .tuple(tool, objectBody)
      .map(([name, args]) => `{"name":${JSON.stringify(name)},"arguments":${args}}`),
    'prompts/get': fc
      .tuple(fc.constantFrom('helper', 'greeter', 'nope'), objectBody)
      .map(([name, args]) => `{"name":"${name}","arguments":${args}}`),
    'resources/read': hostileString.map((s) => `{"uri":${JSON.stringify(`kbctx://documents/${s}`)}}`),
    initialize: fc
      .constantFrom('2025-06-18', '2025-03-26', '2024-11-05', '2026-07-28', '1999-01-01', 'x')
      .map((v) => `{"protocolVersion":"${v}","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}`),
  };
  return fc.oneof(
    { weight: 4, arbitrary: specific[method] ?? objectBody },
    { weight: 1, arbitrary: fc.option(valueText, { nil: undefined }) },
  );
};

const rpcMessage: fc.Arbitrary<string> = fc
  .record({
    version: fc.constantFrom('"2.0"', '"2.0"', '"2.0"', '"1.0"', '2', 'null'),
    id: fc.constantFrom('1', '"a"', 'null', '1.5', '{}', '[]', undefined),
    method: fc.constantFrom(...MCP_METHODS),
  })
  .chain(({ version, id, method }) =>
    paramsFor(method).map(
      (params) =>
        `{"jsonrpc":${version},${id === undefined ? '' : `"id":${id},`}"method":${JSON.stringify(method)}` +
        `${params === undefined ? '' : `,"params":${params}`}}`,
    ),
  );

export const mcpRequest: fc.Arbitrary<FuzzRequest> = fc
  .record({
    body: fc.oneof(
      { weight: 8, arbitrary: rpcMessage },
      { weight: 2, arbitrary: fc.array(rpcMessage, { maxLength: 4 }).map((m) => `[${m.join(',')}]`) },
      { weight: 1, arbitrary: restBody.map((b) => b ?? '') },
    ),
    version: fc.constantFrom('2025-06-18', '2025-06-18', '2025-03-26', '2026-07-28', '2024-11-05', 'garbage', ''),
    accept: fc.oneof(
      { weight: 8, arbitrary: fc.constant('application/json, text/event-stream') },
      { weight: 1, arbitrary: fc.constantFrom('application/json', 'text/event-stream', '*/*', '') },
    ),
    method: fc.oneof(
      { weight: 12, arbitrary: fc.constant('POST') },
      { weight: 1, arbitrary: fc.constantFrom('GET', 'DELETE', 'PUT') },
    ),
    type: contentType,
  })
  .map(({ body, version, accept, method, type }) => {
    const headers: Record<string, string> = {};
    if (type) headers['content-type'] = type;
    if (version) headers['mcp-protocol-version'] = version;
    if (accept) headers['accept'] = accept;
    return { method, path: '/mcp', headers, body: method === 'GET' ? undefined : body };
  });

/**
 * Host headers a hostile client might send (node:http sets a valid one otherwise): malformed ones must be 400,
 * never 500.
 */
const HOSTS = [
  'localhost:abc',
  '127.0.0.1:7411.',
  'localhost:7411@evil.com',
  'localhost:7411, evil.com',
  '[::1',
  '127.0.0.256',
  'localhost:99999',
  '',
  'evil.example.com',
  'localhost',
  '[::1]:7411',
];

export const anyRequest: fc.Arbitrary<FuzzRequest> = fc
  .tuple(
    fc.oneof({ weight: 1, arbitrary: restRequest }, { weight: 1, arbitrary: mcpRequest }),
    fc.oneof({ weight: 19, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...HOSTS) }),
  )
  .map(([request, host]) => (host === undefined ? request : { ...request, headers: { ...request.headers, host } }));
