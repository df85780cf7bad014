-- Operator: ARGV[10] is FORCED_OPEN, FORCED_CLOSED or CLOSED (back to automatic), for every instance.
-- CLOSED and FORCED_CLOSED start a fresh window.
local st = load()
local target = ARGV[10]
local changed = false
if st.state ~= target then
  save(st, target, 'OPERATOR')
  clear_lease(st)
  redis.call('HDEL', S, 'probe_at', 'opened_at')
  if target ~= 'FORCED_OPEN' then reset_window() end
  changed = true
end
return answer(st, changed)
