-- wrk script: saved filters revalidated as polling clients do. Every request takes a path at random
-- from a list and sends If-None-Match with the ETag of that path's page as this client last got it.
--   wrk -s bench/conditional-paths.lua URL -- PATHS_FILE KEY_FILE REPORT_FILE
-- PATHS_FILE: one "FAMILY PATH ETAG" a line (ETAG "-": none known yet, the path is asked plainly
-- until a 200 brings one). The bench fetches every page once just before each run, so a run starts
-- with the pages' current tags. FAMILY and KEY_FILE as in random-paths.lua.
--
-- A 200 carries the page's new ETag: the script keeps it for that path, so its next requests
-- revalidate against the new page (the state of a client's cache). wrk does not tell response()
-- which request it answers (a thread's connections interleave), so each request carries
-- "X-Request-Id: poll-N" (N: the path's line), which the server echoes (src/platform/http/operations.ts);
-- that is also what a client tracing its calls sends.
--
-- Each wrk thread runs its own Lua state, so each thread is one client cache, shared by its
-- connections: with 2 threads, a page that changed is fetched in full once by each thread, plus by
-- every request that thread had already sent with the old tag before the first 200 came back.
--
-- Statuses outside 2xx are tallied by code as random-paths.lua tallies them ("Non-2xx statuses:
-- 304=81234 503=2"), 304 included (the bench counts it a success, and takes the share of 304s from
-- it), with the start of the first body of each status but 304 (which has none). When the run ends,
-- REPORT_FILE gets, summed over the threads, "name=value" lines: sent (requests made), not_modified
-- (304s), full (200s), tag_updates (tags replaced after a 200), unmatched (responses naming no path).

-- The shared parts (bench/wrk-common.lua), from this script's own folder.
local common = dofile((debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "") .. "wrk-common.lua")
setup = common.setup

local paths, families, etags, requests = {}, {}, {}, {}
local headers_of

local function format(i)
  local headers = {}
  for name, value in pairs(headers_of[families[i]]) do
    headers[name] = value
  end
  headers["X-Request-Id"] = "poll-" .. i
  if etags[i] then
    headers["If-None-Match"] = etags[i]
  end
  return wrk.format("GET", paths[i], headers)
end

function init(args)
  local paths_file, key_file = args[1], args[2]
  report_file = args[3]
  headers_of = common.key_headers(key_file)
  for line in io.lines(paths_file) do
    local family, path, etag = line:match("^(%S+) (%S+) (%S+)$")
    if family then
      assert(headers_of[family], "unknown family " .. family)
      local i = #paths + 1
      paths[i], families[i] = path, family
      if etag ~= "-" then
        etags[i] = etag
      end
      requests[i] = format(i)
    end
  end
  assert(#requests > 0, "no paths in " .. paths_file)
  math.randomseed(os.time() * 100 + thread_number)
  common.start_tally()
  sent, not_modified, full, tag_updates, unmatched = 0, 0, 0, 0, 0
end

function request()
  sent = sent + 1
  return requests[math.random(#requests)]
end

-- Response header names arrive as the server wrote them (lower case from Node); any case is accepted.
local function header(headers, name)
  local value = headers[name]
  if value then
    return value
  end
  for key, v in pairs(headers) do
    if string.lower(key) == name then
      return v
    end
  end
end

function response(status, headers, body)
  if status == 304 then
    not_modified = not_modified + 1
  elseif status == 200 then
    full = full + 1
  end
  common.tally(status, body)
  local i = tonumber(string.match(header(headers, "x-request-id") or "", "^poll%-(%d+)$") or "")
  if not i or not paths[i] then
    unmatched = unmatched + 1
    return
  end
  if status == 200 then
    local etag = header(headers, "etag")
    if etag and etag ~= etags[i] then
      etags[i] = etag
      requests[i] = format(i)
      tag_updates = tag_updates + 1
    end
  end
end

function done()
  common.done({ "sent", "not_modified", "full", "tag_updates", "unmatched" })
end
