-- What the bench's wrk scripts share: the key's headers per family, the tally of statuses outside
-- 2xx, and the summary printed (and reported) when a run ends. Each script loads it with dofile()
-- from its own folder; wrk gives every thread its own Lua state, so each state loads it once.
local common = {}

-- The threads wrk made, in setup() order; each knows its number (math.randomseed apart).
common.threads = {}

function common.setup(thread)
  table.insert(common.threads, thread)
  thread:set("thread_number", #common.threads)
end

-- The headers that carry the key in KEY_FILE, per family: v1 x-lot-api-key, v2 a Bearer token,
-- plain none; `extra` is added to each. The key stays off the command line, which others can read.
function common.key_headers(key_file, extra)
  local handle = assert(io.open(key_file, "r"))
  local key = handle:read("*l") or ""
  handle:close()
  local headers = { v1 = { ["x-lot-api-key"] = key }, v2 = { ["Authorization"] = "Bearer " .. key }, plain = {} }
  for _, set in pairs(headers) do
    for name, value in pairs(extra or {}) do
      set[name] = value
    end
  end
  return headers
end

-- A thread's tally starts empty (globals, so done() can read them with thread:get).
function common.start_tally()
  statuses = {}
  samples = {}
end

-- Counts a status outside 2xx, and keeps the start of the first body of each (a 304 has none).
function common.tally(status, body)
  if status < 200 or status > 299 then
    statuses[status] = (statuses[status] or 0) + 1
    if status ~= 304 and not samples[status] then
      samples[status] = (string.gsub(string.sub(body or "", 1, 200), "%s+", " "))
    end
  end
end

-- Prints "Non-2xx statuses: 503=2 …" and a sample body of each, summed over the threads; with
-- `counters` (names of per-thread globals), writes their sums as "name=N" lines to the report file
-- the first thread names (its global report_file).
function common.done(counters)
  local merged, sampled = {}, {}
  local totals = {}
  for _, name in ipairs(counters or {}) do
    totals[name] = 0
  end
  for _, thread in ipairs(common.threads) do
    for status, n in pairs(thread:get("statuses") or {}) do
      merged[status] = (merged[status] or 0) + n
    end
    for status, body in pairs(thread:get("samples") or {}) do
      sampled[status] = sampled[status] or body
    end
    for name, _ in pairs(totals) do
      totals[name] = totals[name] + (thread:get(name) or 0)
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
  local file = counters and common.threads[1] and common.threads[1]:get("report_file")
  if file then
    local handle = assert(io.open(file, "w"))
    for _, name in ipairs(counters) do
      handle:write(string.format("%s=%d\n", name, totals[name]))
    end
    handle:close()
  end
end

return common
