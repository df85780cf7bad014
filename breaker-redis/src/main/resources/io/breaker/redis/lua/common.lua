-- Shared by every breaker script (prepended to each one when it is loaded).
-- KEYS[1] state hash, KEYS[2] window hash, KEYS[3] count-window ring, KEYS[4] this instance's
-- acknowledged report number; all carry the hash tag {breaker:<name>}, so they share one Redis
-- Cluster slot.
-- ARGV[1] instance id, [2] window type C|T, [3] window size, [4] minimum calls, [5] failure-rate
-- threshold, [6] slow-call-rate threshold, [7] wait in OPEN (ms) should this call open the fleet (a
-- trip in report.lua, a failed probe): the configured wait, or 'ms:REASON', the wait the instance
-- computed for it (the backoff for the fleet's failed probes, jitter, a Retry-After) and why
-- (RETRY_AFTER, BACKOFF, CONFIGURED), [8] probe lease (ms), [9] key expiry (ms, cleanup only; at
-- least the longest wait), [10..] the script's own arguments.
-- CALL, FAILED and SLOW, the bits of an outcome, are not defined here: BreakerScripts puts their
-- definition from io.breaker.spi.OutcomeBits in front of this file, so Java and Lua cannot differ.
--
-- Time is Redis's own clock, so instances with skewed clocks agree; state is decided by comparing
-- timestamps, and a key's expiry is only cleanup.
--
-- Ordering. The state hash carries an incarnation (created with the hash: a Redis that lost its
-- data starts a new one) and a version, raised by every change; every answer carries both, so an
-- instance applies answers in order and recognises a lost state. The window carries its epoch (the
-- version at which it was started), its type and size, and seq, the number of outcomes added in
-- this epoch: a report of successes says from which (incarnation, epoch, seq) it accumulated them.
local S, W, R, A = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local OWNER = ARGV[1]
local WTYPE = ARGV[2]
local WSIZE = tonumber(ARGV[3])
local MINCALLS = tonumber(ARGV[4])
local FAILRATE = tonumber(ARGV[5])
local SLOWRATE = tonumber(ARGV[6])
local WAIT = tonumber(string.match(ARGV[7], '^%d+'))
local WAIT_REASON = string.match(ARGV[7], ':([%u_]+)$') or 'CONFIGURED'
local LEASE = tonumber(ARGV[8])
local EXPIRY = tonumber(ARGV[9])

local clock = redis.call('TIME')
local NOW = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)

local function num(v, default)
  return tonumber(v) or default
end

-- The shared state. A breaker without one is CLOSED and gets one now, with a new incarnation and
-- fresh = 1 (nothing has happened in it yet: instances that remember a state may seed it).
local function load()
  local v = redis.call('HMGET', S, 'state', 'probe_at', 'cause', 'lease_owner', 'lease_until', 'since',
    'ver', 'inc', 'op_at', 'fresh', 'attempts')
  if not v[1] then
    local inc = clock[1] .. '.' .. clock[2]
    redis.call('DEL', W, R)
    redis.call('HSET', S, 'state', 'CLOSED', 'cause', 'STORE_RESET', 'since', NOW, 'ver', 1, 'inc', inc,
      'op_at', 0, 'fresh', 1)
    v = { 'CLOSED', nil, 'STORE_RESET', nil, nil, NOW, 1, inc, 0, '1' }
  end
  return { state = v[1], probe_at = num(v[2], 0), cause = v[3] or 'STORE_RESET', owner = v[4] or '',
           lease_until = num(v[5], 0), since = num(v[6], 0), ver = num(v[7], 1), inc = v[8] or '',
           op_at = num(v[9], 0), fresh = v[10] == '1', attempts = num(v[11], 0) }
end

-- Every change raises the version; any change but a seed ends the fresh period.
local function bump(st, keep_fresh)
  st.ver = st.ver + 1
  redis.call('HSET', S, 'ver', st.ver)
  if st.fresh and not keep_fresh then
    st.fresh = false
    redis.call('HSET', S, 'fresh', 0)
  end
end

local function save(st, state, cause, keep_fresh)
  st.state = state
  st.cause = cause
  st.since = NOW
  redis.call('HSET', S, 'state', state, 'cause', cause, 'since', NOW)
  if state ~= 'OPEN' and state ~= 'HALF_OPEN' then
    -- the counts of a trip, its failed probes and the reason of its wait last until the episode ends
    redis.call('HDEL', S, 'tripped', 'attempts', 'wait_reason')
    st.attempts = 0
  end
  bump(st, keep_fresh)
end

local function clear_lease(st)
  st.owner = ''
  st.lease_until = 0
  redis.call('HDEL', S, 'lease_owner', 'lease_until')
end

local function set_lease(st, owner, untl)
  st.owner = owner
  st.lease_until = untl
  redis.call('HSET', S, 'lease_owner', owner, 'lease_until', untl)
end

-- The window, started afresh at the current version (a new epoch).
local function reset_window(st)
  redis.call('DEL', W, R)
  redis.call('HSET', W, 'type', WTYPE, 'size', WSIZE, 'epoch', st.ver, 'seq', 0, 'head', 0,
    'calls', 0, 'failed', 0, 'slow', 0)
end

-- The window's bookkeeping; a window of another type or size (a rolling deploy that changed it) is
-- started afresh rather than read with the wrong shape.
local function window(st)
  local v = redis.call('HMGET', W, 'type', 'size', 'epoch', 'seq', 'head')
  if v[1] ~= WTYPE or tonumber(v[2]) ~= WSIZE then
    reset_window(st)
    return { epoch = st.ver, seq = 0, head = 0 }
  end
  return { epoch = num(v[3], 0), seq = num(v[4], 0), head = num(v[5], 0) }
end

local function bits_of(byte)
  if byte == nil or byte < 48 then return 0 end
  return byte - 48
end

local function has(bits, flag)
  return math.floor(bits / flag) % 2 == 1
end

-- The count window's ring: one character per outcome, position p in [0, WSIZE).
local function ring_read(pos, n)
  if n <= 0 then return '' end
  pos = pos % WSIZE
  if pos + n <= WSIZE then
    local got = redis.call('GETRANGE', R, pos, pos + n - 1)
    return got .. string.rep('\0', n - #got)
  end
  return ring_read(pos, WSIZE - pos) .. ring_read(0, n - (WSIZE - pos))
end

local function ring_write(pos, text)
  local n = #text
  if n == 0 then return end
  pos = pos % WSIZE
  if pos + n <= WSIZE then
    redis.call('SETRANGE', R, pos, text)
    return
  end
  redis.call('SETRANGE', R, pos, string.sub(text, 1, WSIZE - pos))
  redis.call('SETRANGE', R, 0, string.sub(text, WSIZE - pos + 1))
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
    redis.call('HSET', W, 'calls', 0, 'failed', 0, 'slow', 0, 'oldest', second)
    for s = math.max(oldest, newest - WSIZE - 1), newest do
      redis.call('HDEL', W, 'c' .. s, 'f' .. s, 's' .. s)
    end
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

-- Adds k outcomes with the same bits, placed behind the newest `behind` outcomes of the window.
-- COUNT_BASED: the ring keeps the last WSIZE outcomes in arrival order; k outcomes reported late
-- (a batch of successes counted before the outcomes the fleet recorded since) go in before those
-- newer ones and push out only older ones: a late batch never erases newer failures. TIME_BASED:
-- one bucket per Redis-clock second (a late batch lands in the current second).
local function add(win, bits, k, behind)
  if k <= 0 then return end
  if WTYPE == 'C' then
    behind = math.min(math.max(behind or 0, 0), math.min(win.seq, WSIZE))
    k = math.min(k, WSIZE - behind)
    if k <= 0 then return end
    local head = win.head
    local calls, failed, slow = 0, 0, 0
    local evicted = ring_read(head, k)
    for i = 1, #evicted do
      local b = bits_of(string.byte(evicted, i))
      if b > 0 then calls = calls - 1 end
      if has(b, FAILED) then failed = failed - 1 end
      if has(b, SLOW) then slow = slow - 1 end
    end
    local newer = ring_read(head - behind + WSIZE, behind)
    ring_write(head - behind + WSIZE, string.rep(string.char(48 + bits), k) .. newer)
    calls = calls + k
    if has(bits, FAILED) then failed = failed + k end
    if has(bits, SLOW) then slow = slow + k end
    win.head = (head + k) % WSIZE
    win.seq = win.seq + k
    redis.call('HSET', W, 'head', win.head, 'seq', win.seq)
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
    win.seq = win.seq + k
    redis.call('HSET', W, 'newest', second, 'seq', win.seq)
    redis.call('HSETNX', W, 'oldest', second)
  end
end

-- Calls, failed and slow calls in the window (TIME_BASED: of the last WSIZE seconds).
local function counts()
  if WTYPE ~= 'C' then expire_seconds() end
  local v = redis.call('HMGET', W, 'calls', 'failed', 'slow')
  return num(v[1], 0), num(v[2], 0), num(v[3], 0)
end

-- The same verdict as the in-memory window: nil, FAILURE_RATE or SLOW_CALL_RATE; with a cause, the
-- counts that decided it ('calls,failed,slow').
local function verdict()
  local calls, failed, slow = counts()
  if calls < MINCALLS or calls <= 0 then return nil end
  local cause = nil
  if failed > 0 and failed * 100 >= FAILRATE * calls then cause = 'FAILURE_RATE'
  elseif slow > 0 and slow * 100 >= SLOWRATE * calls then cause = 'SLOW_CALL_RATE' end
  if cause then return cause, string.format('%d,%d,%d', calls, failed, slow) end
  return nil
end

-- Into OPEN after `attempts` failed probes since the trip (0: the trip): the reopen time is NOW plus
-- the wait this call carries (ARGV[7]), which the instance computed from the fleet's count.
local function reopen_at(st, attempts)
  st.probe_at = NOW + WAIT
  st.attempts = attempts
  redis.call('HSET', S, 'opened_at', NOW, 'probe_at', st.probe_at, 'attempts', attempts, 'wait_reason', WAIT_REASON)
  clear_lease(st)
end

-- CLOSED -> OPEN, a conditional write: only the first trip sets the reopen time; a breaker that is
-- already OPEN (or anything but CLOSED) is left as it is, so late failures never push it back.
-- `tripped`, the counts the verdict gave, is kept with the state until the episode ends: every
-- instance that adopts the trip reports these numbers.
local function trip(st, cause, tripped)
  if st.state ~= 'CLOSED' then return false end
  save(st, 'OPEN', cause)
  redis.call('HSET', S, 'tripped', tripped)
  reopen_at(st, 0)
  reset_window(st)
  return true
end

local function touch()
  redis.call('PEXPIRE', S, EXPIRY)
  if redis.call('EXISTS', W) == 1 then redis.call('PEXPIRE', W, EXPIRY) end
  if redis.call('EXISTS', R) == 1 then redis.call('PEXPIRE', R, EXPIRY) end
end

local function acked()
  return num(redis.call('GET', A), 0)
end

-- The answer, seen from this instance: { state, ms until a probe may be tried, cause, changed,
-- since, version, incarnation, window epoch, window seq, this instance's acknowledged report,
-- newest operator time, fresh, the window's counts when it tripped ('calls,failed,slow'; '' when
-- not OPEN or HALF_OPEN, or not known), the failed probes since the trip and why the wait is as long
-- as it is (both '' when not OPEN or HALF_OPEN) }. HALF_OPEN is answered only to the holder of a live lease; anyone
-- else reads OPEN until it runs out.
local function answer(st, changed)
  touch()
  local win = redis.call('HMGET', W, 'epoch', 'seq')
  local state, remaining = st.state, 0
  if st.state == 'OPEN' then
    remaining = math.max(0, st.probe_at - NOW)
  elseif st.state == 'HALF_OPEN' then
    if st.owner == OWNER and st.lease_until > NOW then
      remaining = st.lease_until - NOW
    else
      state, remaining = 'OPEN', math.max(0, st.lease_until - NOW)
    end
  end
  local tripped, attempts, reason = '', '', ''
  if st.state == 'OPEN' or st.state == 'HALF_OPEN' then
    tripped = redis.call('HGET', S, 'tripped') or ''
    attempts = tostring(st.attempts)
    reason = redis.call('HGET', S, 'wait_reason') or ''
  end
  return { state, string.format('%.0f', remaining), st.cause, changed and '1' or '0',
           string.format('%.0f', st.since), tostring(st.ver), st.inc, tostring(win[1] or st.ver),
           tostring(win[2] or 0), tostring(acked()), string.format('%.0f', st.op_at), st.fresh and '1' or '0',
           tripped, attempts, reason }
end
