-- Shared by every breaker script (prepended to each one when it is loaded).
-- KEYS[1] state hash, KEYS[2] window counts hash, KEYS[3] count-window ring; all three carry the
-- hash tag {breaker:<name>}, so they live in one Redis Cluster slot.
-- ARGV[1] instance id, [2] window type C|T, [3] window size, [4] minimum calls, [5] failure-rate
-- threshold, [6] slow-call-rate threshold, [7] wait in OPEN (ms), [8] probe lease (ms),
-- [9] key expiry (ms, cleanup only), [10..] the script's own arguments.
-- Time is Redis's own clock, so instances with skewed clocks agree. State is decided by comparing
-- timestamps; a key's expiry is only cleanup.
local S, W, R = KEYS[1], KEYS[2], KEYS[3]
local OWNER = ARGV[1]
local WTYPE = ARGV[2]
local WSIZE = tonumber(ARGV[3])
local MINCALLS = tonumber(ARGV[4])
local FAILRATE = tonumber(ARGV[5])
local SLOWRATE = tonumber(ARGV[6])
local WAIT = tonumber(ARGV[7])
local LEASE = tonumber(ARGV[8])
local EXPIRY = tonumber(ARGV[9])
local CALL, FAILED, SLOW = 1, 2, 4

local clock = redis.call('TIME')
local NOW = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)

-- The shared state; a breaker without one is CLOSED, and gets one now, so that every answer carries
-- the time of the last change (a Redis that lost its data starts again from a newer time).
local function load()
  local v = redis.call('HMGET', S, 'state', 'probe_at', 'cause', 'lease_owner', 'lease_until', 'since')
  if not v[1] then
    redis.call('HSET', S, 'state', 'CLOSED', 'cause', 'OPERATOR', 'since', NOW)
    v[6] = NOW
  end
  return { state = v[1] or 'CLOSED', probe_at = tonumber(v[2]) or 0, cause = v[3] or 'OPERATOR',
           owner = v[4] or '', lease_until = tonumber(v[5]) or 0, since = tonumber(v[6]) or 0 }
end

local function save(st, state, cause)
  st.state = state
  st.cause = cause
  st.since = NOW
  redis.call('HSET', S, 'state', state, 'cause', cause, 'since', NOW)
end

local function clear_lease(st)
  st.owner = ''
  st.lease_until = 0
  redis.call('HDEL', S, 'lease_owner', 'lease_until')
end

local function reset_window()
  redis.call('DEL', W, R)
end

local function bits_of(byte)
  if byte == nil or byte < 48 then return 0 end
  return byte - 48
end

local function has(bits, flag)
  return math.floor(bits / flag) % 2 == 1
end

-- TIME_BASED: drops the buckets of seconds that left the window from the running totals, oldest
-- first (each second is dropped once, so this is O(1) per call on average); returns the current second.
local function expire_seconds()
  local second = math.floor(NOW / 1000)
  local cutoff = second - WSIZE
  local v = redis.call('HMGET', W, 'oldest', 'newest')
  local oldest, newest = tonumber(v[1]), tonumber(v[2])
  if oldest == nil or oldest > cutoff then return second end
  if newest == nil or newest <= cutoff then
    redis.call('DEL', W)
    return second
  end
  while oldest <= cutoff do
    local b = redis.call('HMGET', W, 'c' .. oldest, 'f' .. oldest, 's' .. oldest)
    if b[1] then
      redis.call('HINCRBY', W, 'calls', -tonumber(b[1]))
      if b[2] then redis.call('HINCRBY', W, 'failed', -tonumber(b[2])) end
      if b[3] then redis.call('HINCRBY', W, 'slow', -tonumber(b[3])) end
      redis.call('HDEL', W, 'c' .. oldest, 'f' .. oldest, 's' .. oldest)
    end
    oldest = oldest + 1
  end
  redis.call('HSET', W, 'oldest', oldest)
  return second
end

-- Adds k outcomes with the same bits. COUNT_BASED: a ring of the last WSIZE outcomes, one character
-- each, overwritten from the head. TIME_BASED: one bucket per Redis-clock second. Both keep running
-- totals (calls, failed, slow) next to their slots.
local function add(bits, k)
  if k <= 0 then return end
  if WTYPE == 'C' then
    if k > WSIZE then k = WSIZE end
    local head = tonumber(redis.call('HGET', W, 'head')) or 0
    local calls, failed, slow = 0, 0, 0
    local done = 0
    while done < k do
      local start = (head + done) % WSIZE
      local n = math.min(k - done, WSIZE - start)
      local old = redis.call('GETRANGE', R, start, start + n - 1)
      for i = 1, #old do
        local b = bits_of(string.byte(old, i))
        if b > 0 then calls = calls - 1 end
        if has(b, FAILED) then failed = failed - 1 end
        if has(b, SLOW) then slow = slow - 1 end
      end
      redis.call('SETRANGE', R, start, string.rep(string.char(48 + bits), n))
      done = done + n
    end
    calls = calls + k
    if has(bits, FAILED) then failed = failed + k end
    if has(bits, SLOW) then slow = slow + k end
    redis.call('HSET', W, 'head', (head + k) % WSIZE)
    redis.call('HINCRBY', W, 'calls', calls)
    redis.call('HINCRBY', W, 'failed', failed)
    redis.call('HINCRBY', W, 'slow', slow)
  else
    local second = expire_seconds()
    redis.call('HINCRBY', W, 'c' .. second, k)
    redis.call('HINCRBY', W, 'calls', k)
    if has(bits, FAILED) then
      redis.call('HINCRBY', W, 'f' .. second, k)
      redis.call('HINCRBY', W, 'failed', k)
    end
    if has(bits, SLOW) then
      redis.call('HINCRBY', W, 's' .. second, k)
      redis.call('HINCRBY', W, 'slow', k)
    end
    redis.call('HSET', W, 'newest', second)
    redis.call('HSETNX', W, 'oldest', second)
  end
end

-- Calls, failed and slow calls in the window (TIME_BASED: of the last WSIZE seconds).
local function counts()
  if WTYPE ~= 'C' then expire_seconds() end
  local v = redis.call('HMGET', W, 'calls', 'failed', 'slow')
  return tonumber(v[1]) or 0, tonumber(v[2]) or 0, tonumber(v[3]) or 0
end

-- The same verdict as the in-memory window: nil, FAILURE_RATE or SLOW_CALL_RATE.
local function verdict()
  local calls, failed, slow = counts()
  if calls < MINCALLS or calls <= 0 then return nil end
  if failed > 0 and failed * 100 >= FAILRATE * calls then return 'FAILURE_RATE' end
  if slow > 0 and slow * 100 >= SLOWRATE * calls then return 'SLOW_CALL_RATE' end
  return nil
end

-- CLOSED -> OPEN, a conditional write: only the first trip sets the reopen time; a breaker that is
-- already OPEN (or anything but CLOSED) is left as it is, so late failures never push it back.
local function trip(st, cause)
  if st.state ~= 'CLOSED' then return false end
  save(st, 'OPEN', cause)
  st.probe_at = NOW + WAIT
  redis.call('HSET', S, 'opened_at', NOW, 'probe_at', st.probe_at)
  clear_lease(st)
  reset_window()
  return true
end

local function touch()
  redis.call('PEXPIRE', S, EXPIRY)
  if redis.call('EXISTS', W) == 1 then redis.call('PEXPIRE', W, EXPIRY) end
  if redis.call('EXISTS', R) == 1 then redis.call('PEXPIRE', R, EXPIRY) end
end

-- The answer, seen from this instance: { state, ms until a probe may be tried, cause, changed,
-- since (Redis ms of the last change: orders answers that cross on their way back) }.
-- HALF_OPEN is answered only to the holder of a live lease; anyone else reads OPEN until it runs out.
local function answer(st, changed)
  touch()
  local flag = changed and '1' or '0'
  local since = string.format('%.0f', st.since)
  if st.state == 'OPEN' then
    return { 'OPEN', string.format('%.0f', math.max(0, st.probe_at - NOW)), st.cause, flag, since }
  end
  if st.state == 'HALF_OPEN' then
    if st.owner == OWNER and st.lease_until > NOW then
      return { 'HALF_OPEN', '0', st.cause, flag, since }
    end
    return { 'OPEN', string.format('%.0f', math.max(0, st.lease_until - NOW)), st.cause, flag, since }
  end
  return { st.state, '0', st.cause, flag, since }
end
