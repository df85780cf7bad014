-- OPEN -> HALF_OPEN: the probe lease. Exactly one instance wins it once the wait is over; a lease
-- that ran out without a report is free for the next instance that asks.
local st = load()
local changed = false
local due = st.state == 'OPEN' and NOW >= st.probe_at
local expired = st.state == 'HALF_OPEN' and st.lease_until <= NOW
if due or expired then
  save(st, 'HALF_OPEN', 'WAIT_ELAPSED')
  set_lease(st, OWNER, NOW + LEASE)
  changed = true
end
return answer(st, changed)
