// A third-party kbctx plugin (docs/plugins-reference.md): a `tickets` connector, a tool, an agent, redaction
// and skipping of documents, a ranking boost, a CLI command and a transport. Enable it with
// `plugins = ["bundled", "./plugins/acme.ts"]` in config/kbctx.toml (paths are relative to the project
// folder, the one holding config/).
// Only `import type` from kbctx: types are erased at run time, so the file needs no install.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Plugin } from 'kbctx';

interface AcmeOptions {
  boost: string;
}

const plugin: Plugin<AcmeOptions> = {
  name: 'acme',
  version: '1.0.0',
  kbctx: '^0.2',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { boost: { type: 'string', default: 'urgent' } },
  },
  provides: [
    'connector:tickets',
    'tool:acme_open_tickets',
    'agent:acme-triage',
    'command:acme-hello',
    'transport:acme',
  ],
  apply(kernel, options) {
    // A connector type: [connectors.tickets.<name>] with a `tickets` list.
    kernel.hooks.createConnector.for('tickets').tapPromise('acme', async (instance) => ({
      async *scan() {
        for (const t of instance.options['tickets'] as { id: string; title: string; text: string }[])
          yield { source_id: t.id, title: t.title, body: t.text };
      },
    }));
    // Redact secrets; leave drafts out of the index.
    kernel.hooks.document.tapPromise('acme', async (draft) => {
      if (draft.title.startsWith('DRAFT')) return { ...draft, skip: true };
      return { ...draft, body: draft.body.replace(/password: \S+/g, 'password: [redacted]') };
    });
    // Hits whose title holds the boost word go first.
    kernel.hooks.rank.tapPromise('acme', async (hits) => {
      const word = options.boost.toLowerCase();
      return [...hits].sort(
        (a, b) => Number(b.title.toLowerCase().includes(word)) - Number(a.title.toLowerCase().includes(word)),
      );
    });
    kernel.hooks.tools.tap('acme', (tools) =>
      tools.add({
        name: 'acme_open_tickets',
        description: 'How many indexed tickets mention a word.',
        inputSchema: {
          type: 'object',
          properties: { word: { type: 'string', description: 'the word' } },
          required: ['word'],
        },
        readOnly: true,
        call: async (params, ctx) => {
          const found = (await ctx.search({ query: String(params['word']), source: 'tickets' })) as {
            results: unknown[];
          };
          return { word: params['word'], tickets: found.results.length };
        },
      }),
    );
    kernel.hooks.agents.tap('acme', (agents) =>
      agents.add({
        name: 'acme-triage',
        description: 'Triage one ticket.',
        tools: ['search', 'acme_open_tickets'],
        arguments: [{ name: 'ticket', description: 'ticket id', required: true }],
        resolve: async (args) => ({ system: `You triage ACME tickets. Start with ticket ${String(args['ticket'])}.` }),
      }),
    );
    kernel.hooks.commands.tap('acme', (program) => {
      program
        .command('acme-hello')
        .description('say hello from the acme plugin')
        .action(() => console.log('hello from acme'));
    });
    // `kbctx serve acme`: GET /search?q=… answered with the built-in search.
    kernel.hooks.createTransport.for('acme').tapPromise('acme', async ({ bind }, ctx) => {
      const [host = '127.0.0.1', port = '0'] = bind.split(/:(?=\d+$)/);
      const server = createServer((req, res) => {
        const q = new URL(req.url ?? '/', 'http://x').searchParams.get('q') ?? '';
        ctx.search({ query: q }).then(
          (body) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
          (error: Error) =>
            res
              .writeHead(400, { 'content-type': 'application/json' })
              .end(JSON.stringify({ error: { code: 'bad_request', message: error.message } })),
        );
      });
      await new Promise<void>((resolve) => server.listen(Number(port), host, resolve));
      const { address, port: bound } = server.address() as AddressInfo;
      return {
        describe: () => [`acme search at http://${address}:${bound}/search?q=`],
        close: () => new Promise<void>((resolve) => server.close(() => resolve())),
      };
    });
  },
};

export default plugin;
