-- Example script connector: issues from a GitHub-style REST API (GitHub itself, or anything that
-- answers GET /repos/<owner>/<repo>/issues the same way). Incremental: the newest `updated_at`
-- seen is the checkpoint, sent back as `since` on the next sync.
--
--   [connectors.script.issues]
--   path = "examples/connectors/github-issues/connector.lua"
--   base_url = "https://api.github.com"
--   repo = "owner/name"
--   token = "${GITHUB_TOKEN}"   # optional
--   per_page = "50"             # optional; strings work too (community configs use them)

connector = {
  name = "github-issues",
  version = "1.0.0",
  description = "Issues (not pull requests) of one repository, with labels and state",
}

local function headers(config)
  local h = { Accept = "application/vnd.github+json", ["User-Agent"] = "kbctx-script" }
  if config.token and config.token ~= "" then h.Authorization = "Bearer " .. config.token end
  return h
end

function connector.scan(config, checkpoint)
  if not config.repo then error("set `repo = \"owner/name\"` in [connectors.script.<name>]") end
  local base = config.base_url or "https://api.github.com"
  local per_page = tonumber(config.per_page) or 50
  local items, newest = {}, checkpoint
  local page = 1
  while true do
    local params = { state = "all", per_page = per_page, page = page, sort = "updated", direction = "asc" }
    if checkpoint then params.since = checkpoint end
    local res = http.get(base .. "/repos/" .. config.repo .. "/issues", { headers = headers(config), params = params })
    if not res.ok then error("listing issues failed: HTTP " .. res.status .. " " .. res.body) end
    for _, issue in ipairs(res.json or {}) do
      if issue.pull_request == nil then
        local labels = {}
        for i, l in ipairs(issue.labels or {}) do labels[i] = l.name end
        items[#items + 1] = {
          source_id = issue.number,
          title = "#" .. issue.number .. " " .. issue.title,
          body = (issue.body and issue.body ~= "") and issue.body or issue.title,
          source_url = issue.html_url,
          author = issue.user and issue.user.login,
          created_at = issue.created_at,
          updated_at = issue.updated_at,
          metadata_json = json.encode({ state = issue.state, labels = labels }),
        }
      end
      if newest == nil or issue.updated_at > newest then newest = issue.updated_at end
    end
    if #(res.json or {}) < per_page then break end
    page = page + 1
  end
  log.info(("%d issue(s) from %s"):format(#items, config.repo))
  return items, newest
end
