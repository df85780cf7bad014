-- Changes some of one breaker's settings changed at runtime, by compare-and-set on the fleet's
-- (epoch, version), or creates them when Redis holds none (never written, or lost).
-- KEYS[1]: {breaker:<name>}:settings, a hash: 'epoch' (written only when the hash is created: a random
--          id chosen by the client, so that a Redis that lost the hash never hands out an epoch again),
--          'version' (raised by every change within the epoch), 'principal' (who made the newest
--          change) and 'p:<property>' per setting that differs from the configured value.
-- ARGV[1]: a new random epoch, used only if the hash is created
-- ARGV[2], ARGV[3]: the epoch and version the client's change is based on ('' and 0: none)
-- ARGV[4]: the principal ('' when none)
-- ARGV[5]: n, the number of the base's overrides that follow, then n pairs property, value: what the
--          client remembers of the fleet's settings, put back only if the hash is created
-- then triples property, op, value: op 's' sets the property to value, 'd' returns it to its
-- configured value (value is then '')
-- Answers {outcome, field, value, field, value, ...}: outcome 'applied' (the hash changed or was
-- created), 'unchanged' (the change changes nothing: nothing written) or 'stale' (the hash is not at
-- the base: nothing written), then every field of the hash as it now is.
local key = KEYS[1]
local base_count = tonumber(ARGV[5])
local first_change = 6 + 2 * base_count

local function answer(outcome)
  local reply = redis.call('HGETALL', key)
  table.insert(reply, 1, outcome)
  return reply
end

local function apply_changes()
  local changed = false
  for i = first_change, #ARGV, 3 do
    local field = 'p:' .. ARGV[i]
    if ARGV[i + 1] == 's' then
      if redis.call('HGET', key, field) ~= ARGV[i + 2] then
        redis.call('HSET', key, field, ARGV[i + 2])
        changed = true
      end
    elseif redis.call('HDEL', key, field) == 1 then
      changed = true
    end
  end
  return changed
end

local function stamp()
  if ARGV[4] ~= '' then
    redis.call('HSET', key, 'principal', ARGV[4])
  else
    redis.call('HDEL', key, 'principal')
  end
end

local epoch = redis.call('HGET', key, 'epoch')
if not epoch or not tonumber(redis.call('HGET', key, 'version')) then
  -- No settings (or a hash without an epoch or a version, not written here): created from the base
  -- and the change.
  redis.call('DEL', key)
  for i = 6, first_change - 1, 2 do
    redis.call('HSET', key, 'p:' .. ARGV[i], ARGV[i + 1])
  end
  apply_changes()
  if redis.call('HLEN', key) == 0 then
    return answer('unchanged') -- the configured values, as without a hash: nothing to keep
  end
  redis.call('HSET', key, 'epoch', ARGV[1], 'version', 1)
  stamp()
  return answer('applied')
end
if epoch ~= ARGV[2] or redis.call('HGET', key, 'version') ~= ARGV[3] then
  return answer('stale')
end
if not apply_changes() then
  return answer('unchanged')
end
redis.call('HINCRBY', key, 'version', 1)
stamp()
return answer('applied')
