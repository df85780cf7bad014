-- Reports of one instance, oldest first, and the fleet's state in answer (a refresh is a report of
-- nothing but the successes counted since the last one). ARGV[10] the number of reports, then 8
-- values per report: its number (rseq), the outcome bits of a failed or slow call (0 for none),
-- the successes counted before it, the (incarnation, epoch, seq) of the window when those
-- successes began to be counted, and the (incarnation, epoch) the instance knew when it reported.
--
-- A report is applied once: the instance sends again whatever Redis has not acknowledged (a timed
-- out report is carried by the next one), and reports at or below the acknowledged number are
-- skipped. Outcomes count only in CLOSED and only in the window they belong to: successes counted
-- while another window was current are dropped, and go in behind the outcomes the fleet recorded
-- since they began (a late batch never pushes out newer failures); a failed call reported against
-- another window is dropped as well. A reporter that has never heard from the fleet is counted as
-- current (an empty base), its successes behind everything.
local st = load()
local win = window(st)
local changed = false
local last = acked()
local newest = last
local n = tonumber(ARGV[10])
for i = 0, n - 1 do
  local o = 11 + i * 8
  local rseq = tonumber(ARGV[o])
  if rseq > last then
    if rseq > newest then newest = rseq end
    if st.state == 'CLOSED' then
      local bits, k = tonumber(ARGV[o + 1]), tonumber(ARGV[o + 2])
      local binc, bepoch, bseq = ARGV[o + 3], tonumber(ARGV[o + 4]), tonumber(ARGV[o + 5])
      local finc, fepoch = ARGV[o + 6], tonumber(ARGV[o + 7])
      if k > 0 then
        if binc == '' then
          add(win, CALL, k, WSIZE)
        elseif binc == st.inc and bepoch == win.epoch then
          add(win, CALL, k, win.seq - bseq)
        end
      end
      if bits > 0 and (finc == '' or (finc == st.inc and fepoch == win.epoch)) then
        add(win, bits, 1, 0)
      end
      local cause, tripped = verdict()
      if cause then changed = trip(st, cause, tripped) or changed end
    end
  end
end
if newest > last then
  redis.call('SET', A, newest, 'PX', EXPIRY)
end
return answer(st, changed)
