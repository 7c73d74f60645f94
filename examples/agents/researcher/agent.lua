-- Example script agent: a research assistant whose system prompt is built from what the knowledge
-- base holds about the topic, so the client starts with the right documents in view.
--
--   [agents.script.researcher]
--   path = "examples/agents/researcher/agent.lua"
--   timeout = 30
--   results = "4"   # optional: how many documents to put in the prompt

agent = {
  description = "Researches a topic in the knowledge base and answers with citations",
  tools = { "search", "get" },
  arguments = {
    { name = "topic", description = "What to research", required = true },
    { name = "audience", description = "Who the answer is for (default: an engineer)" },
  },
}

function agent.resolve(args, config, context)
  local limit = tonumber(config.results) or 4
  local results = context.search(args.topic, { limit = limit })
  local lines = {
    ("You are a careful research assistant. The topic is %q; the reader is %s."):format(args.topic, args.audience or "an engineer"),
    "Answer only from the knowledge base. Use `search` for more and `get` to read a document; cite ids.",
  }
  if #results == 0 then
    lines[#lines + 1] = "The knowledge base has nothing on this topic yet: say so rather than guessing."
  else
    lines[#lines + 1] = "Start from these documents:"
    for _, r in ipairs(results) do
      lines[#lines + 1] = ("- %s (id %s, %s): %s"):format(r.title, r.id, r.source, r.snippet)
    end
  end
  return {
    system = table.concat(lines, "\n"),
    messages = {
      { role = "user", content = "Research: " .. args.topic },
      { role = "assistant", content = ("I found %d relevant document(s); I'll read them before answering."):format(#results) },
    },
  }
end
