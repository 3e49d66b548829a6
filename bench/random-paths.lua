-- wrk script: every request takes a path at random from a list, as many different clients would.
--   wrk -s bench/random-paths.lua URL -- PATHS_FILE KEY_FILE
-- PATHS_FILE: one "FAMILY PATH" a line; FAMILY v1 sends the key in x-lot-api-key, v2 as a Bearer
-- token, plain sends none. KEY_FILE holds the API key (kept off the command line, which others can read).
-- The requests are formatted once, in init(), so choosing one costs a random number and a table read.
-- Statuses outside 2xx are tallied by code and printed when the run ends ("Non-2xx statuses: 503=2"),
-- with the start of the first body of each ("Non-2xx sample 503: {...}"), so a failure can be told apart.

-- The shared parts (bench/wrk-common.lua), from this script's own folder.
local common = dofile((debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "") .. "wrk-common.lua")
setup = common.setup

local requests = {}

function init(args)
  local paths_file, key_file = args[1], args[2]
  local headers = common.key_headers(key_file)
  for line in io.lines(paths_file) do
    local family, path = line:match("^(%S+) (%S+)$")
    if family then
      requests[#requests + 1] = wrk.format("GET", path, assert(headers[family], "unknown family " .. family))
    end
  end
  assert(#requests > 0, "no paths in " .. paths_file)
  -- Threads start together: the thread number keeps their sequences apart.
  math.randomseed(os.time() * 100 + thread_number)
  common.start_tally()
end

function request()
  return requests[math.random(#requests)]
end

function response(status, headers, body)
  common.tally(status, body)
end

function done()
  common.done()
end
