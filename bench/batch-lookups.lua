-- wrk script: batch lookups. Every request POSTs a JSON body picked at random from a list, as many
-- different clients enriching their own lists of companies would.
--   wrk -s bench/batch-lookups.lua URL -- BODIES_FILE KEY_FILE REPORT_FILE
-- BODIES_FILE: one "FAMILY PATH INPUTS BODY" a line: BODY is the JSON text (one line, to the end of
-- it), INPUTS how many websites it holds. FAMILY and KEY_FILE as in random-paths.lua. Each request
-- is formatted once, in init(), with Content-Type: application/json (wrk adds Content-Length).
-- Statuses outside 2xx are tallied as random-paths.lua tallies them. When the run ends, REPORT_FILE
-- gets, summed over wrk's threads (each has its own Lua state), "sent=N" (requests made) and
-- "inputs=N" (websites in them): the bench turns req/s into websites/s with their ratio.

local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("thread_number", counter)
  table.insert(threads, thread)
end

local requests, counts = {}, {}

function init(args)
  local bodies_file, key_file = args[1], args[2]
  report_file = args[3]
  local key_handle = assert(io.open(key_file, "r"))
  local key = key_handle:read("*l") or ""
  key_handle:close()
  local headers = {
    v1 = { ["x-lot-api-key"] = key, ["Content-Type"] = "application/json" },
    v2 = { ["Authorization"] = "Bearer " .. key, ["Content-Type"] = "application/json" },
    plain = { ["Content-Type"] = "application/json" },
  }
  for line in io.lines(bodies_file) do
    local family, path, count, body = line:match("^(%S+) (%S+) (%d+) (.+)$")
    if family then
      local i = #requests + 1
      requests[i] = wrk.format("POST", path, assert(headers[family], "unknown family " .. family), body)
      counts[i] = tonumber(count)
    end
  end
  assert(#requests > 0, "no bodies in " .. bodies_file)
  math.randomseed(os.time() * 100 + thread_number)
  statuses = {}
  samples = {}
  sent, inputs = 0, 0
end

function request()
  local i = math.random(#requests)
  sent = sent + 1
  inputs = inputs + counts[i]
  return requests[i]
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
  local total_sent, total_inputs = 0, 0
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("statuses") or {}) do
      merged[status] = (merged[status] or 0) + n
    end
    for status, body in pairs(thread:get("samples") or {}) do
      sampled[status] = sampled[status] or body
    end
    total_sent = total_sent + (thread:get("sent") or 0)
    total_inputs = total_inputs + (thread:get("inputs") or 0)
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
  local file = threads[1] and threads[1]:get("report_file")
  if file then
    local handle = assert(io.open(file, "w"))
    handle:write(string.format("sent=%d\ninputs=%d\n", total_sent, total_inputs))
    handle:close()
  end
end
