-- kbctx script agent: {{name}}
-- Add it to config/kbctx.toml (every key besides path and timeout reaches resolve() as `config`):
--   [agents.script.{{name}}]
--   path = "agents/{{name}}.lua"
--   timeout = 30
-- Try it:  kbctx agent test {{name}} --arg topic=deployments
-- Served as an MCP prompt and as POST /agents/{{name}}/prompt. Host modules: see docs/lua.md.

agent = {
  description = "Describe the persona this agent gives an AI client",
  tools = { "search", "get" },
  arguments = {
    { name = "topic", description = "What the conversation is about", required = false },
  },
}

-- resolve returns the system prompt, the tools to offer and optional opening messages.
function agent.resolve(args, config, context)
  local topic = args.topic or "the knowledge base"
  local lines = { "You help with questions about " .. topic .. ".",
                  "Search before answering and cite the documents you used." }
  if args.topic then
    for _, r in ipairs(context.search(args.topic, { limit = 3 })) do
      lines[#lines + 1] = "- " .. r.title .. " (id " .. r.id .. ")"
    end
  end
  return { system = table.concat(lines, "\n"), tools = agent.tools, messages = {} }
end
