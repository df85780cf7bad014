-- Operator: ARGV[10] is FORCED_OPEN, FORCED_CLOSED or CLOSED (back to automatic), for every
-- instance; ARGV[11] the time (ms) of the operator's action. The newest action wins: one replayed
-- after an outage never overwrites a newer one made meanwhile. CLOSED and FORCED_CLOSED start a
-- fresh window.
local st = load()
local target, op_at = ARGV[10], tonumber(ARGV[11])
local changed = false
if op_at >= st.op_at then
  st.op_at = op_at
  redis.call('HSET', S, 'op_at', op_at)
  if st.state ~= target then
    save(st, target, 'OPERATOR')
    clear_lease(st)
    redis.call('HDEL', S, 'probe_at', 'opened_at')
    if target ~= 'FORCED_OPEN' then reset_window(st) end
    changed = true
  else
    bump(st)
  end
end
return answer(st, changed)
