-- wrk script for Estoc's load test (bench/load/run.py writes the request list and runs wrk).
--
--   wrk -t2 -c50 -d60s --timeout 5s -s bench/load/mix.lua http://127.0.0.1:PORT -- requests.lua
--
-- requests.lua returns a Lua table of {method=, path=, headers={}, body=, kind=} already weighted
-- (a kind that weighs 3 appears three times) and shuffled; each connection walks it round-robin
-- from its own offset. done() prints one JSON line between markers: the latency percentiles (µs),
-- the request and error counts and the status codes seen by every thread.

local threads = {}
local counter = 0


function setup(thread)
  thread:set("id", counter)
  table.insert(threads, thread)
  counter = counter + 1
end

local formatted = {}
local index = 0
statuses = {}

function init(args)
  local list = dofile(args[1])
  for i, r in ipairs(list) do
    formatted[i] = wrk.format(r.method, r.path, r.headers, r.body)
  end
  -- spread the threads over the list so that they do not send the same request at once
  index = (id * 7919) % #formatted
end

function request()
  index = index % #formatted + 1
  return formatted[index]
end

function response(status, headers, body)
  local key = tostring(status)
  statuses[key] = (statuses[key] or 0) + 1
end

local function json(value)
  local t = type(value)
  if t == "table" then
    local parts = {}
    for k, v in pairs(value) do
      table.insert(parts, string.format("%q:%s", tostring(k), json(v)))
    end
    return "{" .. table.concat(parts, ",") .. "}"
  elseif t == "number" then
    return string.format("%.17g", value)
  else
    return string.format("%q", tostring(value))
  end
end

function done(summary, latency, requests)
  local codes = {}
  for _, thread in ipairs(threads) do
    local s = thread:get("statuses") or {}
    for k, v in pairs(s) do
      codes[k] = (codes[k] or 0) + v
    end
  end
  local p = {}
  for _, q in ipairs({ 50, 75, 90, 95, 99, 99.9 }) do
    p[tostring(q)] = latency:percentile(q)
  end
  local out = {
    duration_us = summary.duration,
    requests = summary.requests,
    bytes = summary.bytes,
    errors = summary.errors,
    latency_us = { min = latency.min, max = latency.max, mean = latency.mean, stdev = latency.stdev, percentiles = p },
    statuses = codes,
  }
  io.write("\n@@WRK-JSON@@\n" .. json(out) .. "\n@@END@@\n")
end
