-- A load another application puts on the service while bench/compare measures the benchmark application's scenario
-- (BENCH_BESIDE): what one tenant's requests cost every other tenant. Arguments (after --): LOAD KEY
--   webhookchurn: register an endpoint, remove it again, over and over, with a key holding webhooks:manage
--                 (12 connections did this in the attack that stalled every application for seconds)
local load, key
local endpoints = {}
local counter = 0

function init(args)
  load, key = args[1], args[2]
  math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16) % 100000)
end

local function post(path, body)
  return wrk.format("POST", path, {["api-key"] = key, ["Content-Type"] = "application/json"}, body)
end

function request()
  if load == "webhookchurn" then
    local id = table.remove(endpoints)
    if id then return post("/api/v1/webhooks/" .. id .. "/remove", "{}") end
    counter = counter + 1
    return post("/api/v1/webhooks", string.format('{"url":"https://example.com/a%d"}', counter))
  end
  error("unknown load " .. tostring(load))
end

-- The new endpoint's id is in its Location; a full application (409) just tries again after the next removal.
function response(status, headers, body)
  local location = headers["Location"] or headers["location"]
  if status == 201 and location then
    table.insert(endpoints, location:match("(%d+)$"))
  end
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("BESIDE requests=%d seconds=%.3f errors=%d\n", summary.requests,
    summary.duration / 1e6, e.connect + e.read + e.write + e.timeout + e.status))
end
