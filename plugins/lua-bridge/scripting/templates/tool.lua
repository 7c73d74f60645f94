-- kbctx script tool: {{name}}
-- Add it to config/kbctx.toml (every key besides path and timeout reaches execute() as context.config):
--   [tools.script.{{name}}]
--   path = "tools/{{name}}.lua"
--   timeout = 30
-- Try it:  kbctx tool test tools/{{name}}.lua --param query=hello
-- Served as POST /tools/{{name}} and as an MCP tool. Host modules: see docs/lua.md.

tool = {
  name = "{{name}}",
  version = "0.1.0",
  description = "Describe what this tool does, for the AI agent that will call it",
  parameters = {
    { name = "query", type = "string", default = "hello", description = "What to look up" },
    { name = "limit", type = "integer", default = 3, description = "How many documents to consider" },
  },
}

-- params are validated and defaulted before execute runs; return any Lua value (it becomes JSON).
function tool.execute(params, context)
  local results = context.search(params.query, { limit = params.limit })
  local titles = {}
  for i, r in ipairs(results) do titles[i] = r.title end
  return { query = params.query, count = #results, titles = titles }
end
