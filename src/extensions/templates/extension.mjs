// @ts-check
// kbctx extension: {{name}}. Enable it in your kbctx config:
//   [extensions]
//   modules = ["{{path}}"]
//   [connectors.{{name}}.main]     # an instance of the connector type below, synced by `kbctx sync {{name}}:main`
//   greeting = "hello"
// Test it: node --test {{test}}    The contract: docs/extensions.md (types in the kbctx package).

/** @type {import('kbctx').KbctxExtension} */
export default function extension(kbctx) {
  kbctx.registerTool({
    name: '{{name}}',
    description: 'Describe what this tool does, for the AI agent that will call it.',
    parameters: { type: 'object', properties: { text: { type: 'string', description: 'Some text' } }, required: ['text'] },
    // Params arrive validated; pass `signal` to fetch() so a time-out (default 30 s) stops the work.
    async execute({ text }, { signal }) {
      signal.throwIfAborted();
      return { text, length: String(text).length };
    },
  });

  kbctx.registerAgent({
    name: '{{name}}_agent',
    description: 'Describe what this prompt is for.',
    tools: ['search', '{{name}}'],
    arguments: [{ name: 'topic', description: 'What to focus on', required: true }],
    async resolve({ topic }, { context }) {
      const found = /** @type {{ results: { title: string }[] }} */ (await context.search({ query: String(topic), limit: 3 }));
      return { system: `Help with ${topic}. Start from: ${found.results.map((r) => r.title).join('; ') || 'nothing yet'}.` };
    },
  });

  kbctx.registerConnector({
    type: '{{name}}',
    // Yield every item the source holds; items not yielded are removed from the index.
    async *scan(config, { signal }) {
      signal.throwIfAborted();
      yield { source_id: 'welcome', title: 'Welcome', body: `${config['greeting'] ?? 'hello'} from {{name}}`, updated_at: '2026-01-01T00:00:00Z' };
    },
  });
}
