-- The periodic refresh of an instance's cached state (once per state-cache-ttl), carrying the
-- batch of successes counted since the last one (ARGV[10]). Successes are counted only in CLOSED;
-- they can trip the fleet too, as in memory (a success may bring the window to its minimum calls).
local st = load()
local changed = false
local successes = tonumber(ARGV[10])
if st.state == 'CLOSED' and successes > 0 then
  add(CALL, successes)
  local cause = verdict()
  if cause then changed = trip(st, cause) end
end
return answer(st, changed)
