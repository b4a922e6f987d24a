-- One wrk script for every scenario. Arguments (after --): SCENARIO MODE KEY ROWS
--   SCENARIO: one | page0 | pagerandom | pagelast | create | modify | mix | filtered | upsert | feed | search |
--             searchcommon | searchapart | duplicates | history | modifyone | historydeep | createtwin |
--             duplicatestwin | createcustom | modifycustom | pagecustom | pagecustomone | pagerange | pagerangewide |
--             consent | oneconsent | pageconsent | pageconsentdeep | oneagain | page0again | modifyagain (the same as
--             one, page0 and modify, measured again beside the consent scenarios)
--   MODE:     service (the real API) | ceiling (bench/Ceiling.java: same-size answers from memory)
--   ROWS:     how many donor rows were seeded; the benchmark application owns every row whose
--             index modulo 10 is not 9 (see bench/Seed.java), ids being index + 1.
local scenario, mode, key, rows, benchDonors
local counter = 0

function init(args)
  scenario, mode, key, rows = args[1], args[2], args[3], tonumber(args[4])
  benchDonors = rows - math.floor(rows / 10)
  math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16) % 100000)
  wrk.headers["api-key"] = key
end

local function randomBenchId()
  local index = math.random(0, rows - 1)
  if index % 10 == 9 then index = index - 1 end
  return index + 1
end

local function get(path)
  return wrk.format("GET", path, nil, nil)
end

-- wrk.format takes either its own headers table or wrk.headers, never both: the api key is repeated here.
local function post(path, body)
  return wrk.format("POST", path, {["api-key"] = key, ["Content-Type"] = "application/json"}, body)
end

local function one()
  if mode == "ceiling" then return get("/one") end
  return get("/api/v1/donors/" .. randomBenchId())
end

local function page(offset)
  if mode == "ceiling" then return get("/page") end
  return get("/api/v1/donors?limit=30&offset=" .. offset)
end

local function create()
  counter = counter + 1
  local body = string.format(
    '{"first_name":"Bench","last_name":"Create %d","email":"bench%d@example.org","country":"GB","notes":"created by wrk"}',
    counter, counter)
  if mode == "ceiling" then return post("/created", body) end
  return post("/api/v1/donors", body)
end

local function modify()
  counter = counter + 1
  local body = string.format('{"notes":"modified by wrk %d","email_opt_out":%s}', counter, counter % 2 == 0 and "true" or "false")
  if mode == "ceiling" then return post("/modified", body) end
  return post("/api/v1/donors/" .. randomBenchId(), body)
end

-- The donor a seeded address belongs to (bench/Seed.java: donor<index>@example.org), asked for in capitals.
local function filtered()
  if mode == "ceiling" then return get("/page") end
  return get("/api/v1/donors?email=DONOR" .. (randomBenchId() - 1) .. "%40EXAMPLE.ORG")
end

-- A seeded external id (seed-<index>): the upsert modifies that donor.
local function upsert()
  counter = counter + 1
  local body = string.format('{"notes":"upserted by wrk %d"}', counter)
  if mode == "ceiling" then return post("/modified", body) end
  return post("/api/v1/donors/external/seed-" .. (randomBenchId() - 1), body)
end

-- A seeded donor's first name and surname (bench/Seed.java: row i is FIRST_NAMES[i % 20] and surname(i / 20 % 8000)),
-- as a CRM asks "is Jürgen Mulberov already here?": about 140 donors have the surname at a million, some 7 both names.
local FIRST_NAMES = {"Ada", "Jürgen", "Zoë", "Łukasz", "Grace", "Søren", "Amélie", "José", "Mary", "John", "Fatima",
  "Wei", "Olga", "Ingrid", "Pierre", "Anna", "Mohammed", "Yuki", "Carlos", "Emma"}
local SYLLABLES = {"mul", "ler", "schmidt", "ber", "son", "ov", "ski", "ez", "ma", "ti", "no", "ra", "ka", "li", "der",
  "ham", "ford", "well", "sen", "berg"}

local function surname(k)
  return SYLLABLES[k % 20 + 1] .. SYLLABLES[math.floor(k / 20) % 20 + 1] .. SYLLABLES[math.floor(k / 400) % 20 + 1]
end

local function urlencode(text)
  return (text:gsub("[^%w]", function(c) return string.format("%%%02X", string.byte(c)) end))
end

local function search()
  if mode == "ceiling" then return get("/page") end
  local index = randomBenchId() - 1
  local q = FIRST_NAMES[index % 20 + 1] .. " " .. surname(math.floor(index / 20) % 8000)
  return get("/api/v1/donors?q=" .. urlencode(q))
end

-- A word every seeded address has: the first page of every donor, found by walking them in id order (SearchPlan).
local function searchcommon()
  if mode == "ceiling" then return get("/page") end
  return get("/api/v1/donors?q=example")
end

-- An adversarial search: two terms each common (a twentieth of the donors has each first name, over SearchPlan's
-- 5,000 at 100,000 donors) but never together (a donor has one first name), so the page is walked, not drawn.
local function searchapart()
  if mode == "ceiling" then return get("/page") end
  return get("/api/v1/donors?q=ada+grace")
end

-- A seeded donor's history: one record (bench/Seed.java), the cost of the history read itself, which a one-record donor should barely pay.
local function history()
  if mode == "ceiling" then return get("/page") end
  return get("/api/v1/donors/" .. randomBenchId() .. "/history")
end

-- Builds one long history: every request modifies donor 1 (run it first, e.g. 100,000 requests, for historydeep).
local function modifyone()
  counter = counter + 1
  local body = string.format('{"notes":"modified by wrk %d"}', counter)
  if mode == "ceiling" then return post("/modified", body) end
  return post("/api/v1/donors/1", body)
end

-- A page of donor 1's history at a random offset in its first BENCH_HISTORY records (after modifyone built them).
local historyLength = tonumber(os.getenv("BENCH_HISTORY") or "100000")
local function historydeep()
  if mode == "ceiling" then return get("/page") end
  return get("/api/v1/donors/1/history?limit=30&offset=" .. math.random(0, historyLength - 30))
end

-- Donors that all share one email and one phone: the first created in a fresh copy of the seeded database is
-- donor ROWS + 1, whose duplicates duplicatestwin asks for (run createtwin first, in the same list of scenarios).
local function createtwin()
  counter = counter + 1
  local body = string.format('{"first_name":"Twin","last_name":"No %d","email":"twin@example.org","phone":"+44 20 7946 0000"}',
    counter)
  if mode == "ceiling" then return post("/created", body) end
  return post("/api/v1/donors", body)
end

local function duplicatestwin()
  if mode == "ceiling" then return get("/one") end
  return get("/api/v1/donors/" .. (rows + 1) .. "/duplicates")
end

-- A donor's likely duplicates: the seeded donor beside it shares its phone number (bench/Seed.java).
local function duplicates()
  if mode == "ceiling" then return get("/one") end
  return get("/api/v1/donors/" .. randomBenchId() .. "/duplicates")
end

-- Custom fields (docs/api.md, "Custom fields"; bench/Seed.java): a create carrying five values, against create; a
-- modify of one value, against modify's notes; a page of the donors holding a value a ninth of them hold, against
-- filtered's email; a range of member numbers some 110 donors hold (drawn), and one most holders are in (walked).
local function createcustom()
  counter = counter + 1
  local body = string.format(
    '{"first_name":"Bench","last_name":"Create %d","email":"bench%d@example.org","country":"GB","notes":"created by wrk",'
      .. '"custom":{"volunteer":true,"member_number":%d,"chapter":"South","pledge":12.5,"signed":"2024-05-01"}}',
    counter, counter, counter)
  if mode == "ceiling" then return post("/created", body) end
  return post("/api/v1/donors", body)
end

local function modifycustom()
  counter = counter + 1
  local body = string.format('{"custom":{"member_number":%d}}', counter)
  if mode == "ceiling" then return post("/modified", body) end
  return post("/api/v1/donors/" .. randomBenchId(), body)
end

local function pagecustom()
  if mode == "ceiling" then return get("/page") end
  return get("/api/v1/donors?custom.chapter=North&limit=30&offset=" .. math.random(0, 300))
end

-- The same filter's page of one donor: the email-filtered page's size, so the two compare the filters' own cost.
local function pagecustomone()
  if mode == "ceiling" then return get("/one") end
  return get("/api/v1/donors?custom.chapter=North&limit=1&offset=" .. math.random(0, 300))
end

local function pagerange()
  if mode == "ceiling" then return get("/page") end
  local from = math.random(0, rows - 1000)
  return get("/api/v1/donors?custom.member_number.min=" .. from .. "&custom.member_number.max=" .. (from + 1000))
end

local function pagerangewide()
  if mode == "ceiling" then return get("/page") end
  return get("/api/v1/donors?custom.pledge.min=" .. math.random(0, 1000) .. "&offset=" .. math.random(0, 300))
end

-- A page of 30 changes from the start of the feed.
local function feed()
  if mode == "ceiling" then return get("/page") end
  return get("/api/v1/donors/changes?limit=30")
end

-- A donor's consent recorded (bench/Seed.java: a ninth hold three pairs): the status alternates, so most records
-- change the donor's state, which is a donor write as a modify is.
local function consent()
  counter = counter + 1
  local body = string.format('{"channel":"email","purpose":"newsletter","status":"%s","source":"wrk %d","method":"online"}',
    counter % 2 == 0 and "granted" or "withdrawn", counter)
  if mode == "ceiling" then return post("/created", body) end
  return post("/api/v1/donors/" .. randomBenchId() .. "/consents", body)
end

-- A donor that holds five custom values and three consent pairs (rows that are multiples of 10).
local function oneconsent()
  if mode == "ceiling" then return get("/one") end
  return get("/api/v1/donors/" .. (math.random(0, math.floor((rows - 1) / 10)) * 10 + 1))
end

-- The newsletter's mailing list (a ninth of the donors): its first pages by offset, and a page anywhere in it as its
-- next link gives one, past a donor (docs/api.md, "Paging the mailing list").
local function pageconsent()
  if mode == "ceiling" then return get("/page") end
  return get("/api/v1/donors?consent=email%3Anewsletter&limit=30&offset=" .. math.random(0, 300))
end

local function pageconsentdeep()
  if mode == "ceiling" then return get("/page") end
  return get("/api/v1/donors?consent=email%3Anewsletter&limit=30&offset=0&after=" .. randomBenchId())
end

function request()
  if scenario == "one" then return one()
  elseif scenario == "oneagain" then return one()
  elseif scenario == "page0again" then return page(0)
  elseif scenario == "modifyagain" then return modify()
  elseif scenario == "consent" then return consent()
  elseif scenario == "oneconsent" then return oneconsent()
  elseif scenario == "pageconsent" then return pageconsent()
  elseif scenario == "pageconsentdeep" then return pageconsentdeep()
  elseif scenario == "page0" then return page(0)
  elseif scenario == "pagerandom" then return page(math.random(0, benchDonors - 30))
  elseif scenario == "pagelast" then return page(benchDonors - 30)
  elseif scenario == "create" then return create()
  elseif scenario == "modify" then return modify()
  elseif scenario == "mix" then
    local dice = math.random(1, 100)
    if dice <= 90 then return one() elseif dice <= 95 then return create() else return modify() end
  elseif scenario == "filtered" then return filtered()
  elseif scenario == "upsert" then return upsert()
  elseif scenario == "feed" then return feed()
  elseif scenario == "search" then return search()
  elseif scenario == "searchcommon" then return searchcommon()
  elseif scenario == "duplicates" then return duplicates()
  elseif scenario == "searchapart" then return searchapart()
  elseif scenario == "history" then return history()
  elseif scenario == "modifyone" then return modifyone()
  elseif scenario == "historydeep" then return historydeep()
  elseif scenario == "createtwin" then return createtwin()
  elseif scenario == "duplicatestwin" then return duplicatestwin()
  elseif scenario == "createcustom" then return createcustom()
  elseif scenario == "modifycustom" then return modifycustom()
  elseif scenario == "pagecustom" then return pagecustom()
  elseif scenario == "pagecustomone" then return pagecustomone()
  elseif scenario == "pagerange" then return pagerange()
  elseif scenario == "pagerangewide" then return pagerangewide()
  end
  error("unknown scenario " .. tostring(scenario))
end

-- No response() hook: defining one makes wrk parse every answer. errors.status counts answers >= 400.
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT requests=%d seconds=%.3f p50_ms=%.3f p99_ms=%.3f errors=%d\n",
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    e.connect + e.read + e.write + e.timeout + e.status))
end
