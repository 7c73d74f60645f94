-- kbctx script connector: {{name}}
-- Add it to config/kbctx.toml (every key besides path and timeout reaches scan() as `config`):
--   [connectors.script.{{name}}]
--   path = "connectors/{{name}}.lua"
--   timeout = 300
--   # url = "https://example.com/api/items"
--   # token = "${MY_TOKEN}"
-- Try it (writes nothing):  kbctx connector test connectors/{{name}}.lua --source {{name}}
-- Index it:                 kbctx sync script:{{name}}
-- Host modules: http, json, env, log, fs, base64, crypto, sleep (see docs/lua.md).

connector = {
  name = "{{name}}",
  version = "0.1.0",
  description = "Describe what this connector indexes",
}

-- scan(config, checkpoint) returns an array of items. Each item needs `source_id` and a non-empty
-- `body`; `title`, `source_url`, `updated_at` (RFC 3339 or unix seconds), `author`, `content_type`
-- and `metadata_json` are optional. To sync incrementally, also return a new checkpoint (it comes
-- back as `checkpoint` next time) and, optionally, a list of deleted source ids.
function connector.scan(config, checkpoint)
  local items = {}
  -- With a real API:
  -- local res = http.get(config.url, { headers = { Authorization = "Bearer " .. (config.token or "") } })
  -- if not res.ok then error("listing failed: HTTP " .. res.status) end
  -- for _, row in ipairs(res.json) do items[#items + 1] = { source_id = row.id, title = row.title, body = row.text } end
  items[#items + 1] = {
    source_id = "example-1",
    title = "Example item",
    body = "Replace this with real content from your source.",
    source_url = "https://example.com/items/1",
    updated_at = os.time(),
  }
  log.info("scanned " .. #items .. " item(s)")
  return items
end
