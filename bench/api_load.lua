-- wrk script for bench/api_load.py: every request PUTs one player's orders with token auth.
-- Lines of the data file are "path<TAB>token<TAB>json body"; each thread cycles through them
-- from its own offset. Arguments after "--": data file, mean think time in ms (0: none).
local lines = {}
local index = 0
local think = 0
codes = {}
local threads = {}

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(args)
  think = tonumber(args[2] or "0")
  for line in io.lines(args[1]) do
    local path, token, body = line:match("^(%S+)\t(%S+)\t(.*)$")
    local headers = {}
    headers["Authorization"] = "Token " .. token
    headers["Content-Type"] = "application/json"
    -- as the TLS-terminating proxy in front would send them (TRUSTED_PROXIES=127.0.0.1)
    headers["X-Forwarded-Proto"] = "https"
    headers["X-Forwarded-For"] = "127.0.0.1"
    table.insert(lines, wrk.format("PUT", path, headers, body))
  end
  index = (id or 0) * 7919 % #lines
  math.randomseed(1000 + (id or 0))
end

function request()
  index = index % #lines + 1
  return lines[index]
end

function delay()
  if think <= 0 then
    return 0
  end
  -- exponential think time: players act independently
  return math.floor(-math.log(1 - math.random()) * think)
end

function response(status, headers, body)
  codes[status] = (codes[status] or 0) + 1
end

function done(summary, latency, requests)
  local all = {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("codes")) do
      all[status] = (all[status] or 0) + count
    end
  end
  local parts = {}
  for status, count in pairs(all) do
    table.insert(parts, string.format('"%d": %d', status, count))
  end
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests": %d, "duration_us": %d, "codes": {%s}, '
      .. '"errors": {"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d}, '
      .. '"p50_us": %d, "p90_us": %d, "p95_us": %d, "p99_us": %d, "max_us": %d, "mean_us": %.0f}\n',
    summary.requests, summary.duration, table.concat(parts, ", "),
    e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(95),
    latency:percentile(99), latency.max, latency.mean))
end
