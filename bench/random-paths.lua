-- wrk script: every request takes a path at random from a list, as many different clients would.
--   wrk -s bench/random-paths.lua URL -- PATHS_FILE KEY_FILE
-- PATHS_FILE: one "FAMILY PATH" a line; FAMILY v1 sends the key in x-lot-api-key, v2 as a Bearer
-- token, plain sends none. KEY_FILE holds the API key (kept off the command line, which others can read).
-- The requests are formatted once, in init(), so choosing one costs a random number and a table read.
-- Statuses outside 2xx are tallied by code and printed when the run ends ("Non-2xx statuses: 503=2"),
-- with the start of the first body of each ("Non-2xx sample 503: {...}"), so a failure can be told apart.

local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("thread_number", counter)
  table.insert(threads, thread)
end

local requests = {}

function init(args)
  local paths_file, key_file = args[1], args[2]
  local key_handle = assert(io.open(key_file, "r"))
  local key = key_handle:read("*l") or ""
  key_handle:close()
  local headers = {
    v1 = { ["x-lot-api-key"] = key },
    v2 = { ["Authorization"] = "Bearer " .. key },
    plain = {},
  }
  for line in io.lines(paths_file) do
    local family, path = line:match("^(%S+) (%S+)$")
    if family then
      requests[#requests + 1] = wrk.format("GET", path, assert(headers[family], "unknown family " .. family))
    end
  end
  assert(#requests > 0, "no paths in " .. paths_file)
  -- Threads start together: the thread number keeps their sequences apart.
  math.randomseed(os.time() * 100 + thread_number)
  statuses = {}
  samples = {}
end

function request()
  return requests[math.random(#requests)]
end

function response(status, headers, body)
  if status < 200 or status > 299 then
    statuses[status] = (statuses[status] or 0) + 1
    if not samples[status] then
      samples[status] = (string.gsub(string.sub(body or "", 1, 200), "%s+", " "))
    end
  end
end

function done(summary, latency, requests)
  local merged, sampled = {}, {}
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("statuses") or {}) do
      merged[status] = (merged[status] or 0) + n
    end
    for status, body in pairs(thread:get("samples") or {}) do
      sampled[status] = sampled[status] or body
    end
  end
  local parts = {}
  for status, n in pairs(merged) do
    parts[#parts + 1] = string.format("%d=%d", status, n)
  end
  table.sort(parts)
  io.write("Non-2xx statuses: " .. table.concat(parts, " ") .. "\n")
  for status, body in pairs(sampled) do
    io.write(string.format("Non-2xx sample %d: %s\n", status, body))
  end
end
