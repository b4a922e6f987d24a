-- Creates at a steady pace (bench/webhooks): each connection waits DELAY ms after every answer, so C connections make
-- about C * 1000 / (DELAY + latency) creates a second. Arguments (after --): KEY DELAY_MS
local key, pause
local counter = 0

function init(args)
  key, pause = args[1], tonumber(args[2])
end

function delay()
  return pause
end

function request()
  counter = counter + 1
  return wrk.format("POST", "/api/v1/donors", {["api-key"] = key, ["Content-Type"] = "application/json"},
    string.format('{"first_name":"Paced","last_name":"Create %d","notes":"created by wrk"}', counter))
end

function done(summary, latency, requests)
  io.write(string.format("RESULT requests=%d seconds=%.3f errors=%d\n", summary.requests, summary.duration / 1e6,
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
