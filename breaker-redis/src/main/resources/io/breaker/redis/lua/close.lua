-- HALF_OPEN -> CLOSED: the lease holder's probes succeeded; closes for every instance, with a fresh
-- window. Nobody else can close the fleet: not an instance whose lease another one took over, and
-- not a call that was admitted before the trip (the instance never reports those as probes).
local st = load()
local changed = false
if st.state == 'HALF_OPEN' and st.owner == OWNER then
  save(st, 'CLOSED', 'PROBES_SUCCEEDED')
  clear_lease(st)
  redis.call('HDEL', S, 'probe_at', 'opened_at')
  reset_window(st)
  changed = true
end
return answer(st, changed)
