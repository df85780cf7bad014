-- HALF_OPEN -> OPEN: a probe failed. Only the lease holder (or anyone once the lease ran out) reopens;
-- a breaker already OPEN keeps its reopen time.
local st = load()
local changed = false
if st.state == 'HALF_OPEN' and (st.owner == OWNER or st.lease_until <= NOW) then
  save(st, 'OPEN', 'PROBE_FAILED')
  st.probe_at = NOW + WAIT
  redis.call('HSET', S, 'opened_at', NOW, 'probe_at', st.probe_at)
  clear_lease(st)
  changed = true
end
return answer(st, changed)
