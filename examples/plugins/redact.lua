-- A `.lua` plugin (docs/plugins.md, docs/lua.md): redacts a word in every document before it is
-- chunked, and moves hits whose title mentions another word first. Runs in the Lua sandbox; values
-- are JSON only.
plugin = {
  name = "redact",
  version = "1.0.0",
  kbctx = "^0.2",
  -- [plugin.redact], checked like a TypeScript plugin's optionsSchema
  options = { type = "object", additionalProperties = false,
              properties = { word = { type = "string", default = "secret" },
                             boost = { type = "string", default = "urgent" } } },
}

-- Returns the changed draft (fields left nil keep their value); `skip = true` leaves the document out.
function plugin.document(draft, options)
  draft.body = draft.body:gsub(options.word, "[redacted]")
  draft.title = draft.title:gsub(options.word, "[redacted]")
  return draft
end

-- Returns the hits in a new order. `hits` holds up to max(request.limit * 3, 30) candidates; kbctx keeps
-- the first request.limit, so a boosted document below the page still gets in.
function plugin.rank(hits, request, options)
  local first, rest = {}, {}
  for _, hit in ipairs(hits) do
    local list = hit.title:lower():find(options.boost, 1, true) and first or rest
    list[#list + 1] = hit
  end
  for _, hit in ipairs(rest) do first[#first + 1] = hit end
  return first
end
