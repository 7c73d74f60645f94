// @ts-check
// A compiled extension: a connector type `tickets` (documents from the config's `tickets` list; a real
// one would page through an API with `fetch(url, { signal })`), a tool that looks a ticket up, and an
// agent that briefs on a topic from search results. Enable with [extensions] modules = ["…/tickets.mjs"].

/** @type {import('kbctx').KbctxExtension} */
export default function tickets(kbctx) {
  kbctx.registerConnector({
    type: 'tickets',
    async *scan(config, { signal }) {
      const list = /** @type {{ id: string, title: string, text: string, closed?: string }[]} */ (
        config['tickets'] ?? []
      );
      for (const t of list) {
        signal.throwIfAborted();
        yield {
          source_id: t.id,
          title: t.title,
          body: t.text,
          source_url: `https://tickets.example/${t.id}`,
          updated_at: t.closed,
        };
      }
    },
  });

  kbctx.registerTool({
    name: 'ticket_url',
    description: 'The web address of a ticket.',
    parameters: {
      type: 'object',
      properties: { id: { type: 'string', description: 'Ticket id, e.g. T-1' } },
      required: ['id'],
    },
    readOnly: true,
    execute: ({ id }) => {
      if (!/^T-\d+$/.test(String(id))) throw Object.assign(new Error(`no ticket ${id}`), { code: 'not_found' });
      return { url: `https://tickets.example/${id}` };
    },
  });

  kbctx.registerAgent({
    name: 'ticket_brief',
    description: 'Briefs on the tickets about a topic.',
    tools: ['search', 'ticket_url'],
    arguments: [{ name: 'topic', description: 'What to brief on', required: true }],
    async resolve({ topic }, { context }) {
      const found = /** @type {{ results: { title: string }[] }} */ (
        await context.search({ query: String(topic), limit: 3, source: 'tickets:main' })
      );
      const titles = found.results.map((r) => r.title).join('; ') || 'none';
      return {
        system: `Brief the user on ${topic}. Related tickets: ${titles}.`,
        messages: [{ role: 'user', content: `What is the state of ${topic}?` }],
      };
    },
  });
}
