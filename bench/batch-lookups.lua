-- wrk script: batch lookups. Every request POSTs a JSON body picked at random from a list, as many
-- different clients enriching their own lists of companies would.
--   wrk -s bench/batch-lookups.lua URL -- BODIES_FILE KEY_FILE REPORT_FILE
-- BODIES_FILE: one "FAMILY PATH INPUTS BODY" a line: BODY is the JSON text (one line, to the end of
-- it), INPUTS how many websites it holds. FAMILY and KEY_FILE as in random-paths.lua. Each request
-- is formatted once, in init(), with Content-Type: application/json (wrk adds Content-Length).
-- Statuses outside 2xx are tallied as random-paths.lua tallies them. When the run ends, REPORT_FILE
-- gets, summed over wrk's threads (each has its own Lua state), "sent=N" (requests made) and
-- "inputs=N" (websites in them): the bench turns req/s into websites/s with their ratio.

-- The shared parts (bench/wrk-common.lua), from this script's own folder.
local common = dofile((debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "") .. "wrk-common.lua")
setup = common.setup

local requests, counts = {}, {}

function init(args)
  local bodies_file, key_file = args[1], args[2]
  report_file = args[3]
  local headers = common.key_headers(key_file, { ["Content-Type"] = "application/json" })
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
  common.start_tally()
  sent, inputs = 0, 0
end

function request()
  local i = math.random(#requests)
  sent = sent + 1
  inputs = inputs + counts[i]
  return requests[i]
end

function response(status, headers, body)
  common.tally(status, body)
end

function done()
  common.done({ "sent", "inputs" })
end
