-- Publishes one breaker's settings changed at runtime, replacing those published before.
-- KEYS[1]: {breaker:<name>}:settings (a hash: 'version', 'principal', and 'p:<property>' per setting)
-- ARGV[1]: the principal ('' when none); ARGV[2..]: property, value, property, value, ...
-- Returns the new version. The hash has no expiry: the settings stay until an operator returns
-- them to the configured values (an empty change, which keeps the version).
local version = redis.call('HINCRBY', KEYS[1], 'version', 1)
local fields = redis.call('HKEYS', KEYS[1])
for _, field in ipairs(fields) do
  if field ~= 'version' then redis.call('HDEL', KEYS[1], field) end
end
if ARGV[1] ~= '' then redis.call('HSET', KEYS[1], 'principal', ARGV[1]) end
for i = 2, #ARGV, 2 do
  redis.call('HSET', KEYS[1], 'p:' .. ARGV[i], ARGV[i + 1])
end
return version
