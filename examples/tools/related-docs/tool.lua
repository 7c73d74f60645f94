-- Example script tool: find documents related to a question and return the best one's opening
-- chunk, so an agent gets a useful answer in one call. Uses the `context` bridge.
--
--   [tools.script.related_docs]
--   path = "examples/tools/related-docs/tool.lua"
--   max_results = "5"   # optional default for `limit`

tool = {
  name = "related_docs",
  version = "1.0.0",
  description = "Find documents related to a question; returns titles, scores and the best document's opening text.",
  parameters = {
    { name = "question", type = "string", required = true, description = "The question or topic" },
    { name = "limit", type = "integer", description = "How many related documents (default from config, else 5)" },
    { name = "source", type = "string", description = "Only this source, e.g. script:issues" },
  },
}

function tool.execute(params, context)
  local limit = params.limit or tonumber(context.config.max_results) or 5
  local results = context.search(params.question, { limit = limit, source = params.source })
  local related = {}
  for i, r in ipairs(results) do
    related[i] = { id = r.id, title = r.title, score = r.score, source = r.source, url = r.source_url }
  end
  local best = nil
  if results[1] then
    local doc = context.get(results[1].id)
    best = { id = doc.id, title = doc.title, opening = doc.chunks[1] and doc.chunks[1].text or doc.body }
  end
  return { question = params.question, related = related, best = best }
end
