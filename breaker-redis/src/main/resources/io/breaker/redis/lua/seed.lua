-- After Redis lost a breaker's state (restart without persistence, failover, FLUSH, eviction), an
-- instance that remembers a state puts it back: ARGV[10] the state it remembers (OPEN, HALF_OPEN:
-- it holds the probe lease, FORCED_OPEN, FORCED_CLOSED, or CLOSED after an operator's release),
-- [11] ms left of its wait or lease, [12] the time of the newest operator action it knows (the one
-- behind a forced state).
-- A forced state comes back unless a newer operator action was made since (an operator's intent
-- survives a lost store). An automatic state (CLOSED too) brings back the time of the newest
-- operator action the instance knows (a release): an older forced state, seeded by an instance that
-- missed the release, never comes back over it, and is released if it came back first. An automatic
-- state is put back only while nothing else has happened to the new state (fresh): OPEN over CLOSED,
-- the earliest reopen time of all the instances that seed it, a live probe lease over OPEN. So a lost
-- state never closes the fleet, and is never an operator action.
local st = load()
local state, remaining, op_at = ARGV[10], tonumber(ARGV[11]), tonumber(ARGV[12])
local changed = false
if state == 'FORCED_OPEN' or state == 'FORCED_CLOSED' then
  if op_at > st.op_at then
    st.op_at = op_at
    redis.call('HSET', S, 'op_at', op_at)
    if st.state ~= state then
      save(st, state, 'STORE_RESET')
      clear_lease(st)
      redis.call('HDEL', S, 'probe_at', 'opened_at')
      if state ~= 'FORCED_OPEN' then reset_window(st) end
      changed = true
    else
      bump(st)
    end
  end
else
  if op_at > st.op_at then
    st.op_at = op_at
    redis.call('HSET', S, 'op_at', op_at)
    if st.state == 'FORCED_OPEN' or st.state == 'FORCED_CLOSED' then
      save(st, 'CLOSED', 'STORE_RESET')
      clear_lease(st)
      redis.call('HDEL', S, 'probe_at', 'opened_at')
      reset_window(st)
      changed = true
    else
      bump(st, true)
    end
  end
end
if st.fresh and (state == 'OPEN' or state == 'HALF_OPEN') then
  if state == 'OPEN' then
    local at = NOW + remaining
    if st.state == 'CLOSED' then
      save(st, 'OPEN', 'STORE_RESET', true)
      st.probe_at = at
      redis.call('HSET', S, 'opened_at', NOW, 'probe_at', at)
      reset_window(st)
      changed = true
    elseif st.state == 'OPEN' and at < st.probe_at then
      st.probe_at = at
      redis.call('HSET', S, 'probe_at', at)
      bump(st, true)
      changed = true
    end
  elseif state == 'HALF_OPEN' then
    if st.state == 'CLOSED' or st.state == 'OPEN' or (st.state == 'HALF_OPEN' and st.lease_until <= NOW) then
      save(st, 'HALF_OPEN', 'STORE_RESET', true)
      set_lease(st, OWNER, NOW + remaining)
      changed = true
    end
  end
end
return answer(st, changed)
