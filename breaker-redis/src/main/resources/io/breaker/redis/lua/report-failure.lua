-- A failed or slow call in CLOSED (ARGV[10]: its outcome bits; ARGV[11]: successes not sent yet).
-- Counts them in the shared window and trips the fleet when the window reaches a threshold.
-- Outside CLOSED the outcome is not counted. Answers the fleet's state, so the reporting instance
-- learns of a trip from the answer to its own failure.
local st = load()
local changed = false
if st.state == 'CLOSED' then
  add(CALL, tonumber(ARGV[11]))
  add(tonumber(ARGV[10]), 1)
  local cause = verdict()
  if cause then changed = trip(st, cause) end
end
return answer(st, changed)
