package io.breaker.redis;

import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaClosure;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Prototype;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.OneArgFunction;
import org.luaj.vm2.lib.VarArgFunction;
import org.luaj.vm2.lib.jse.JsePlatform;

import java.io.StringReader;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * An in-memory Redis that runs the breaker's real Lua scripts (the text {@link BreakerScripts} sends
 * to Redis: common.lua followed by the script) in luaj, with a {@code redis.call} implementing the
 * commands those scripts use, with Redis's semantics, and a {@code TIME} the model controls.
 *
 * <p>Fidelity to Redis's Lua (5.1) where luaj (5.2) differs, for what the scripts use:
 * <ul>
 * <li>{@code string.format} of luaj 3.0.1 prints {@code %.0f} of 5 as {@code 5.0} and of
 *     1700000000123 as {@code 1.700000000123E12}; here it is C's printf (exact rounding, half to even).</li>
 * <li>{@code tostring} of a number is Lua 5.1's {@code %.14g}.</li>
 * <li>A number given to {@code redis.call} becomes a string as Redis makes it (integral values as
 *     digits); a non-integral number, a boolean or nil fail loudly (Redis rejects the last two, and
 *     the scripts never send the first).</li>
 * <li>Replies: integers are numbers, bulk strings are strings, a missing value is {@code false}
 *     (also inside HMGET's array), a status reply is a table {@code {ok = ...}}, an error raises.</li>
 * <li>A script that creates a global variable fails, as in Redis 7.</li>
 * </ul>
 * Values are byte strings (Latin-1 in Java), so the count window's ring with its NUL bytes is kept
 * byte for byte. Keys expire on the model's clock (an expiry is only cleanup in the protocol).
 * The state can be copied ({@link #copyState()}, for the explorer's memo) and read ({@link #dump()}).
 */
final class LuaRedis {

    /** One value: a string (bytes as Latin-1 chars) or a hash. */
    private final TreeMap<String, Object> data = new TreeMap<>();

    private final TreeMap<String, Long> expiresAt = new TreeMap<>();
    private final LongSupplier nowMillis;
    /** Microseconds within the millisecond of TIME: advances with every script, so incarnations differ. */
    private long micros;

    /** The Lua side, shared by every model Redis (scripts read it only: a new global fails, see {@link #eval}). */
    private static final Globals GLOBALS = JsePlatform.standardGlobals();

    private static final LuaTable STRING_LIB = new LuaTable();
    private static final LuaValue TOSTRING_51 = new OneArgFunction() {
        @Override
        public LuaValue call(LuaValue value) {
            return LuaValue.valueOf(LuaRedis.tostring(value));
        }
    };
    private static final LuaTable ENV_META = new LuaTable();
    private static final Map<String, Prototype> COMPILED = new java.util.concurrent.ConcurrentHashMap<>();

    static {
        LuaTable original = (LuaTable) GLOBALS.get("string");
        for (LuaValue key = original.next(LuaValue.NIL).arg1();
                !key.isnil();
                key = original.next(key).arg1()) {
            STRING_LIB.set(key, original.get(key));
        }
        STRING_LIB.set("format", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return LuaValue.valueOf(format(args));
            }
        });
        ENV_META.set(LuaValue.INDEX, GLOBALS);
        ENV_META.set(LuaValue.NEWINDEX, new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs a) {
                throw new LuaError("Script attempted to create global variable '"
                        + a.arg(2).tojstring() + "'");
            }
        });
    }

    private final LuaTable redisLib = new LuaTable();
    /** Every command the scripts sent, by name (tests check that each one is exercised). */
    static final Map<String, Long> COMMANDS_SEEN = new java.util.concurrent.ConcurrentSkipListMap<>();

    LuaRedis(LongSupplier nowMillis) {
        this.nowMillis = nowMillis;
        redisLib.set("call", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return redisCall(args);
            }
        });
    }

    // ---------------------------------------------------------------- scripts

    /**
     * Runs one script as EVAL would: KEYS and ARGV are given, Redis's reply is returned as Java values
     * (a List of Strings and Longs, nested Lists, or null), as Spring's List-typed script reads it.
     */
    Object eval(String script, List<String> keys, List<String> args) {
        Prototype prototype = COMPILED.computeIfAbsent(script, text -> {
            try {
                return GLOBALS.compilePrototype(new StringReader(text), "script");
            } catch (Exception e) {
                throw new IllegalStateException("the script does not compile in luaj", e);
            }
        });
        LuaTable env = new LuaTable();
        env.setmetatable(ENV_META);
        env.rawset("KEYS", list(keys));
        env.rawset("ARGV", list(args));
        env.rawset("redis", redisLib);
        env.rawset("string", STRING_LIB);
        env.rawset("tostring", TOSTRING_51);
        micros = (micros + 1) % 1000;
        LuaValue result = new LuaClosure(prototype, env).call();
        return toJava(result);
    }

    private static LuaTable list(List<String> values) {
        LuaTable table = new LuaTable();
        for (int i = 0; i < values.size(); i++) {
            table.rawset(i + 1, LuaString.valueOf(values.get(i).getBytes(StandardCharsets.ISO_8859_1)));
        }
        return table;
    }

    /** Lua's value as Redis returns it from a script: integer (truncated), bulk string, array (up to the first nil), nil. */
    private static Object toJava(LuaValue value) {
        if (value.isnil() || value == LuaValue.FALSE) {
            return null;
        }
        if (value == LuaValue.TRUE) {
            return 1L;
        }
        if (value.type() == LuaValue.TNUMBER) {
            return (long) value.todouble();
        }
        if (value.type() == LuaValue.TSTRING) {
            return latin1(value.checkstring());
        }
        if (value.istable()) {
            List<Object> out = new ArrayList<>();
            for (int i = 1; ; i++) {
                LuaValue element = value.get(i);
                if (element.isnil()) {
                    break;
                }
                out.add(toJava(element));
            }
            return out;
        }
        throw new IllegalStateException("a script returned a " + value.typename());
    }

    // ---------------------------------------------------------------- redis.call

    private Varargs redisCall(Varargs args) {
        int n = args.narg();
        String[] a = new String[n];
        for (int i = 1; i <= n; i++) {
            LuaValue v = args.arg(i);
            if (v.type() == LuaValue.TNUMBER) {
                double d = v.todouble();
                if (d != Math.rint(d) || Math.abs(d) >= 1e17) {
                    throw new LuaError(
                            "redis.call got the non-integral number " + d + ": its text differs between Lua engines");
                }
                a[i - 1] = Long.toString((long) d);
            } else if (v.type() == LuaValue.TSTRING) {
                a[i - 1] = latin1(v.checkstring());
            } else {
                throw new LuaError("Lua redis() command arguments must be strings or integers");
            }
        }
        String command = a[0].toUpperCase();
        COMMANDS_SEEN.merge(command, 1L, Long::sum);
        long now = nowMillis.getAsLong();
        switch (command) {
            case "TIME": {
                LuaTable t = new LuaTable();
                t.rawset(1, LuaValue.valueOf(Long.toString(Math.floorDiv(now, 1000))));
                t.rawset(2, LuaValue.valueOf(Long.toString(Math.floorMod(now, 1000) * 1000 + micros)));
                return t;
            }
            case "HMGET": {
                Map<String, String> hash = hash(a[1], false);
                LuaTable t = new LuaTable();
                for (int i = 2; i < n; i++) {
                    t.rawset(i - 1, bulk(hash == null ? null : hash.get(a[i])));
                }
                return t;
            }
            case "HGET": {
                Map<String, String> hash = hash(a[1], false);
                return bulk(hash == null ? null : hash.get(a[2]));
            }
            case "HSET": {
                if (n < 4 || n % 2 != 0) {
                    throw new LuaError("ERR wrong number of arguments for 'hset' command");
                }
                Map<String, String> hash = hash(a[1], true);
                long added = 0;
                for (int i = 2; i < n; i += 2) {
                    if (hash.put(a[i], a[i + 1]) == null) {
                        added++;
                    }
                }
                return LuaValue.valueOf(added);
            }
            case "HSETNX": {
                Map<String, String> hash = hash(a[1], true);
                return LuaValue.valueOf(hash.putIfAbsent(a[2], a[3]) == null ? 1 : 0);
            }
            case "HDEL": {
                Map<String, String> hash = hash(a[1], false);
                long removed = 0;
                if (hash != null) {
                    for (int i = 2; i < n; i++) {
                        if (hash.remove(a[i]) != null) {
                            removed++;
                        }
                    }
                    if (hash.isEmpty()) {
                        delete(a[1]);
                    }
                }
                return LuaValue.valueOf(removed);
            }
            case "HINCRBY": {
                Map<String, String> hash = hash(a[1], true);
                long by = integer(a[3]);
                String old = hash.get(a[2]);
                long value = (old == null ? 0 : integer(old, "ERR hash value is not an integer")) + by;
                hash.put(a[2], Long.toString(value));
                return LuaValue.valueOf(value);
            }
            case "DEL": {
                long removed = 0;
                for (int i = 1; i < n; i++) {
                    if (live(a[i]) != null) {
                        delete(a[i]);
                        removed++;
                    }
                }
                return LuaValue.valueOf(removed);
            }
            case "EXISTS": {
                long found = 0;
                for (int i = 1; i < n; i++) {
                    if (live(a[i]) != null) {
                        found++;
                    }
                }
                return LuaValue.valueOf(found);
            }
            case "GET":
                return bulk(string(a[1]));
            case "SET": {
                Long px = null;
                for (int i = 3; i < n; i++) {
                    if (a[i].equalsIgnoreCase("PX") && i + 1 < n) {
                        px = integer(a[++i]);
                    } else {
                        throw new LuaError("the fake Redis does not implement SET option " + a[i]);
                    }
                }
                live(a[1]);
                data.put(a[1], a[2]);
                expiresAt.remove(a[1]);
                if (px != null) {
                    if (px <= 0) {
                        throw new LuaError("ERR invalid expire time in 'set' command");
                    }
                    expiresAt.put(a[1], now + px);
                }
                LuaTable ok = new LuaTable();
                ok.rawset("ok", LuaValue.valueOf("OK"));
                return ok;
            }
            case "GETRANGE": {
                String value = string(a[1]);
                if (value == null) {
                    return LuaValue.valueOf("");
                }
                long length = value.length();
                long start = integer(a[2]);
                long end = integer(a[3]);
                if (start < 0 && end < 0 && start > end) {
                    return LuaValue.valueOf("");
                }
                if (start < 0) {
                    start = Math.max(0, length + start);
                }
                if (end < 0) {
                    end = Math.max(0, length + end);
                }
                end = Math.min(end, length - 1);
                if (start > end || length == 0) {
                    return LuaValue.valueOf("");
                }
                return bulk(value.substring((int) start, (int) end + 1));
            }
            case "SETRANGE": {
                long offset = integer(a[2]);
                if (offset < 0) {
                    throw new LuaError("ERR offset is out of range");
                }
                String value = string(a[1]);
                if (value == null) {
                    if (a[3].isEmpty()) {
                        return LuaValue.valueOf(0);
                    }
                    value = "";
                }
                StringBuilder out = new StringBuilder(value);
                while (out.length() < offset + a[3].length()) {
                    out.append('\0');
                }
                out.replace((int) offset, (int) offset + a[3].length(), a[3]);
                data.put(a[1], out.toString());
                return LuaValue.valueOf(out.length());
            }
            case "PEXPIRE": {
                if (live(a[1]) == null) {
                    return LuaValue.valueOf(0);
                }
                long ms = integer(a[2]);
                if (ms <= 0) {
                    delete(a[1]);
                } else {
                    expiresAt.put(a[1], now + ms);
                }
                return LuaValue.valueOf(1);
            }
            default:
                throw new LuaError("the fake Redis does not implement " + command);
        }
    }

    /** The value of a key, unless it expired (then it is removed, as Redis does on access). */
    private Object live(String key) {
        Long at = expiresAt.get(key);
        if (at != null && at <= nowMillis.getAsLong()) {
            delete(key);
        }
        return data.get(key);
    }

    private void delete(String key) {
        data.remove(key);
        expiresAt.remove(key);
    }

    @SuppressWarnings("unchecked")
    private Map<String, String> hash(String key, boolean create) {
        Object value = live(key);
        if (value == null) {
            if (!create) {
                return null;
            }
            TreeMap<String, String> hash = new TreeMap<>();
            data.put(key, hash);
            return hash;
        }
        if (!(value instanceof Map)) {
            throw new LuaError("WRONGTYPE Operation against a key holding the wrong kind of value");
        }
        return (Map<String, String>) value;
    }

    private String string(String key) {
        Object value = live(key);
        if (value != null && !(value instanceof String)) {
            throw new LuaError("WRONGTYPE Operation against a key holding the wrong kind of value");
        }
        return (String) value;
    }

    private static long integer(String text) {
        return integer(text, "ERR value is not an integer or out of range");
    }

    private static long integer(String text, String error) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new LuaError(error);
        }
    }

    private static LuaValue bulk(String value) {
        return value == null ? LuaValue.FALSE : LuaString.valueOf(value.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static String latin1(LuaString s) {
        byte[] bytes = new byte[s.rawlen()];
        s.copyInto(0, bytes, 0, bytes.length);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    // ---------------------------------------------------------------- the state

    /** A copy of the whole state (keys, expiries, TIME's microsecond counter). */
    Object[] copyState() {
        return new Object[] {deepCopy(data), new TreeMap<>(expiresAt), micros};
    }

    /** Puts back a state taken with {@link #copyState()} (which stays unchanged). */
    @SuppressWarnings("unchecked")
    void restoreState(Object[] state) {
        data.clear();
        data.putAll(deepCopy((TreeMap<String, Object>) state[0]));
        expiresAt.clear();
        expiresAt.putAll((TreeMap<String, Long>) state[1]);
        micros = (Long) state[2];
    }

    /** The state as text (a memo key: the same text, the same script run gives the same result). */
    String stateText() {
        return data + "|" + expiresAt + "|" + micros;
    }

    private static TreeMap<String, Object> deepCopy(TreeMap<String, Object> from) {
        TreeMap<String, Object> copy = new TreeMap<>();
        for (Map.Entry<String, Object> e : from.entrySet()) {
            Object v = e.getValue();
            copy.put(e.getKey(), v instanceof TreeMap<?, ?> hash ? new TreeMap<>(hash) : v);
        }
        return copy;
    }

    /** Loses everything, as a restart without persistence or a FLUSHALL does. */
    void flushAll() {
        data.clear();
        expiresAt.clear();
    }

    /** Every live key and its value, hashes field by field, sorted: for fingerprints and comparisons. */
    TreeMap<String, Object> dump() {
        TreeMap<String, Object> out = new TreeMap<>();
        for (String key : new ArrayList<>(data.keySet())) {
            Object value = live(key);
            if (value instanceof Map<?, ?> hash) {
                out.put(key, new TreeMap<>(hash));
            } else if (value != null) {
                out.put(key, value);
            }
        }
        return out;
    }

    /** One hash field (for invariants), or null. */
    String hget(String key, String field) {
        Map<String, String> hash = hash(key, false);
        return hash == null ? null : hash.get(field);
    }

    // ---------------------------------------------------------------- Lua 5.1's number formatting

    /** Lua 5.1's tostring: numbers as {@code %.14g}. */
    static String tostring(LuaValue value) {
        if (value.type() == LuaValue.TNUMBER) {
            return formatG(value.todouble(), 14, false);
        }
        if (value.type() == LuaValue.TSTRING) {
            return value.tojstring();
        }
        return value.tojstring();
    }

    /** Lua 5.1's string.format, which is C's sprintf per specifier; only the conversions the scripts could use. */
    static String format(Varargs args) {
        String fmt = args.checkjstring(1);
        StringBuilder out = new StringBuilder();
        int arg = 2;
        for (int i = 0; i < fmt.length(); i++) {
            char c = fmt.charAt(i);
            if (c != '%') {
                out.append(c);
                continue;
            }
            i++;
            if (fmt.charAt(i) == '%') {
                out.append('%');
                continue;
            }
            int start = i;
            while ("-+ #0".indexOf(fmt.charAt(i)) >= 0) {
                i++;
            }
            String flags = fmt.substring(start, i);
            int width = 0;
            while (Character.isDigit(fmt.charAt(i))) {
                width = width * 10 + (fmt.charAt(i++) - '0');
            }
            int precision = -1;
            if (fmt.charAt(i) == '.') {
                i++;
                precision = 0;
                while (Character.isDigit(fmt.charAt(i))) {
                    precision = precision * 10 + (fmt.charAt(i++) - '0');
                }
            }
            char conversion = fmt.charAt(i);
            String text;
            switch (conversion) {
                case 'd':
                case 'i': {
                    long v = (long) args.checkdouble(arg++);
                    text = Long.toString(v);
                    if (v >= 0 && flags.contains("+")) {
                        text = "+" + text;
                    }
                    break;
                }
                case 'f': {
                    double v = args.checkdouble(arg++);
                    text = fixed(v, precision < 0 ? 6 : precision);
                    if (!text.startsWith("-") && flags.contains("+")) {
                        text = "+" + text;
                    }
                    break;
                }
                case 'g':
                    text = formatG(args.checkdouble(arg++), precision < 0 ? 6 : Math.max(precision, 1), false);
                    break;
                case 's': {
                    text = tostring(args.arg(arg++));
                    if (precision >= 0 && text.length() > precision) {
                        text = text.substring(0, precision);
                    }
                    break;
                }
                default:
                    throw new LuaError("the model's string.format does not implement %" + conversion);
            }
            boolean left = flags.contains("-");
            boolean zero = flags.contains("0") && !left && conversion != 's';
            while (text.length() < width) {
                if (left) {
                    text = text + " ";
                } else if (zero) {
                    int sign = text.startsWith("-") || text.startsWith("+") ? 1 : 0;
                    text = text.substring(0, sign) + "0" + text.substring(sign);
                } else {
                    text = " " + text;
                }
            }
            out.append(text);
        }
        return out.toString();
    }

    private static String special(double v) {
        if (Double.isNaN(v)) {
            return "nan";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        return null;
    }

    /** C's {@code %.<precision>f}: the exact binary value rounded half to even. */
    static String fixed(double v, int precision) {
        String special = special(v);
        if (special != null) {
            return special;
        }
        String text =
                new BigDecimal(v).setScale(precision, RoundingMode.HALF_EVEN).toPlainString();
        if (v < 0 || (v == 0 && 1 / v < 0)) {
            return text.startsWith("-") ? text : "-" + text;
        }
        return text;
    }

    /** C's {@code %.<precision>g} (trailing zeros removed, as without '#'). */
    static String formatG(double v, int precision, boolean keepZeros) {
        String special = special(v);
        if (special != null) {
            return special;
        }
        if (v == 0) {
            return 1 / v < 0 ? "-0" : "0";
        }
        BigDecimal rounded = new BigDecimal(v).round(new MathContext(precision, RoundingMode.HALF_EVEN));
        int exponent = rounded.precision() - rounded.scale() - 1;
        String text;
        if (exponent < -4 || exponent >= precision) {
            BigDecimal mantissa = rounded.movePointLeft(exponent).setScale(precision - 1, RoundingMode.HALF_EVEN);
            String m = mantissa.toPlainString();
            if (!keepZeros && m.contains(".")) {
                m = m.replaceAll("0+$", "").replaceAll("\\.$", "");
            }
            int e = Math.abs(exponent);
            text = m + (exponent < 0 ? "e-" : "e+") + (e < 10 ? "0" + e : Integer.toString(e));
        } else {
            text = rounded.setScale(Math.max(0, precision - 1 - exponent), RoundingMode.HALF_EVEN)
                    .toPlainString();
            if (!keepZeros && text.contains(".")) {
                text = text.replaceAll("0+$", "").replaceAll("\\.$", "");
            }
        }
        return text;
    }
}
