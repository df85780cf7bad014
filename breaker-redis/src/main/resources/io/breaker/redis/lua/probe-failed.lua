-- HALF_OPEN -> OPEN: a probe failed. Only the lease holder (or anyone once the lease ran out) reopens,
-- counts one more failed probe and keeps the wait it computed from the count (ARGV[7]); a breaker
-- already OPEN keeps its reopen time.
local st = load()
local changed = false
if st.state == 'HALF_OPEN' and (st.owner == OWNER or st.lease_until <= NOW) then
  save(st, 'OPEN', 'PROBE_FAILED')
  reopen_at(st, st.attempts + 1)
  changed = true
end
return answer(st, changed)
