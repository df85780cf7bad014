package io.breaker.dynamodb;

import io.breaker.State;
import io.breaker.TransitionCause;
import io.breaker.WaitReason;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

import java.util.HashMap;
import java.util.Map;

/**
 * The table's layout and the protocol's conditional writes, one per shared transition: the same rules
 * as the Redis store's Lua scripts, expressed as DynamoDB condition expressions. Each write answers
 * with the whole item after it ({@code ALL_NEW}); a write whose condition fails changes nothing and the
 * caller reads the item to learn the fleet's state.
 *
 * <p>One item per breaker, partition key {@link #KEY} (the breaker's name). All times are the writing
 * instance's wall clock in milliseconds, except {@link #EXPIRES_AT} (epoch seconds, the table's TTL
 * attribute), which only DynamoDB's cleanup reads.
 */
final class ItemLayout {

    static final String KEY = "breaker";
    static final String STATE = "state";
    static final String CAUSE = "cause";
    static final String VERSION = "ver";
    static final String INCARNATION = "inc";
    static final String SINCE = "since";
    static final String PROBE_AT = "probe_at";
    static final String LEASE_OWNER = "lease_owner";
    static final String LEASE_UNTIL = "lease_until";
    static final String ATTEMPTS = "attempts";
    static final String WAIT_REASON = "wait_reason";
    static final String TRIPPED = "tripped";
    static final String OPERATOR_AT = "op_at";
    static final String WINDOW_EPOCH = "w_epoch";
    static final String WINDOW_BLOCK = "w_block";
    static final String CURRENT_CALLS = "c_calls";
    static final String CURRENT_FAILED = "c_failed";
    static final String CURRENT_SLOW = "c_slow";
    /** When (writer's clock, ms) the current block's first failed or slow call arrived; absent: none yet. */
    static final String CURRENT_FAIL_AT = "c_fail_at";

    static final String PREVIOUS_CALLS = "p_calls";
    static final String PREVIOUS_FAILED = "p_failed";
    static final String PREVIOUS_SLOW = "p_slow";
    /**
     * COUNT_BASED: successes of the current block older than its first failed or slow call ({@link
     * #CURRENT_FAIL_AT}), and the same two of the previous block; absent: 0 and none.
     */
    static final String CURRENT_PRE = "c_pre";

    static final String PREVIOUS_PRE = "p_pre";
    static final String PREVIOUS_FAIL_AT = "p_fail_at";
    /**
     * The window's report sequences: a map from instance id to the sequence of that instance's newest
     * report applied in this window, reset with the window. A report whose sequence is not above its
     * instance's entry was applied already (its answer was lost) and is not counted again.
     */
    static final String SEQUENCES = "seqs";
    /**
     * The fleet's settings changed at runtime (see {@link DynamoSharedSettings}): an id chosen by the
     * instance that created them, never reused (a table that lost the item never hands it out again);
     * absent while nobody changed a setting.
     */
    static final String SETTINGS_EPOCH = "set_epoch";
    /** Raised by every change of the settings within their epoch; not the item's {@link #VERSION}. */
    static final String SETTINGS_VERSION = "set_ver";
    /** Per property (its name as in YAML), the value an operator set, as written. */
    static final String SETTINGS = "set_p";
    /** Who made the newest change of the settings; absent when unknown. */
    static final String SETTINGS_BY = "set_by";
    /** The TTL attribute: epoch seconds after which DynamoDB may delete an item nobody writes. Cleanup only. */
    static final String EXPIRES_AT = "expires_at";

    private ItemLayout() {}

    /** The item of a breaker nobody has written yet: CLOSED, version 1, an empty window. */
    static Map<String, AttributeValue> fresh(String name, String incarnation, long nowMillis, long expiresAt) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(KEY, s(name));
        item.put(STATE, s(State.CLOSED.name()));
        item.put(CAUSE, s(TransitionCause.STORE_RESET.name()));
        item.put(VERSION, n(1));
        item.put(INCARNATION, s(incarnation));
        item.put(SINCE, n(nowMillis));
        item.put(OPERATOR_AT, n(0));
        item.put(WINDOW_EPOCH, n(1));
        for (String counter : new String[] {
            WINDOW_BLOCK, CURRENT_CALLS, CURRENT_FAILED, CURRENT_SLOW, PREVIOUS_CALLS, PREVIOUS_FAILED, PREVIOUS_SLOW
        }) {
            item.put(counter, n(0));
        }
        item.put(SEQUENCES, emptyMap());
        item.put(EXPIRES_AT, n(expiresAt));
        return item;
    }

    /** Builds one conditional UpdateItem: SET/REMOVE/ADD clauses, a condition, and the values they name. */
    static final class Write {

        private final String name;
        private final StringBuilder set = new StringBuilder();
        private final StringBuilder remove = new StringBuilder();
        private final StringBuilder add = new StringBuilder();
        private final Map<String, String> names = new HashMap<>();
        private final Map<String, AttributeValue> values = new HashMap<>();
        private String condition = "";

        Write(String name) {
            this.name = name;
        }

        /** {@code #attr} for an attribute (every attribute is named through a placeholder: some are reserved words). */
        String ref(String attribute) {
            names.put("#" + attribute, attribute);
            return "#" + attribute;
        }

        /** {@code #placeholder} for a name that is not one of the layout's attributes (a map key). */
        String refName(String placeholder, String name) {
            names.put("#" + placeholder, name);
            return "#" + placeholder;
        }

        /** {@code :placeholder} for a value. */
        String val(String placeholder, AttributeValue value) {
            values.put(":" + placeholder, value);
            return ":" + placeholder;
        }

        Write set(String attribute, AttributeValue value) {
            append(set, ref(attribute) + " = " + val("v_" + attribute, value));
            return this;
        }

        Write setExpression(String attribute, String expression) {
            append(set, ref(attribute) + " = " + expression);
            return this;
        }

        /** {@code path = expression}, for a path inside a map attribute. */
        Write setPath(String path, String expression) {
            append(set, path + " = " + expression);
            return this;
        }

        Write remove(String... attributes) {
            for (String attribute : attributes) {
                append(remove, ref(attribute));
            }
            return this;
        }

        /** {@code REMOVE path}, for a path inside a map attribute. */
        Write removePath(String path) {
            append(remove, path);
            return this;
        }

        Write add(String attribute, long amount) {
            append(add, ref(attribute) + " " + val("a_" + attribute, n(amount)));
            return this;
        }

        Write when(String expression) {
            condition = expression;
            return this;
        }

        UpdateItemRequest build(String table) {
            StringBuilder update = new StringBuilder();
            if (set.length() > 0) {
                update.append("SET ").append(set);
            }
            if (remove.length() > 0) {
                update.append(" REMOVE ").append(remove);
            }
            if (add.length() > 0) {
                update.append(" ADD ").append(add);
            }
            UpdateItemRequest.Builder request = UpdateItemRequest.builder()
                    .tableName(table)
                    .key(Map.of(KEY, s(name)))
                    .updateExpression(update.toString().trim())
                    .expressionAttributeNames(names)
                    .returnValues(ReturnValue.ALL_NEW);
            // Every write is on an existing item: one that is missing is created (CLOSED) by a read first,
            // so an update never makes an item without its version and window.
            String exists = "attribute_exists(" + ref(KEY) + ")";
            request.conditionExpression(condition.isEmpty() ? exists : exists + " AND (" + condition + ")");
            request.expressionAttributeNames(names);
            if (!values.isEmpty()) {
                request.expressionAttributeValues(values);
            }
            return request.build();
        }

        private static void append(StringBuilder clause, String part) {
            if (clause.length() > 0) {
                clause.append(", ");
            }
            clause.append(part);
        }
    }

    /**
     * A transition: the new state, its cause and time, the version raised by one (in the expression, so
     * it is the item's own version plus one whatever the writer read), the TTL renewed.
     */
    static Write transition(String name, State to, TransitionCause cause, long now, long expiresAt) {
        Write write = new Write(name)
                .set(STATE, s(to.name()))
                .set(CAUSE, s(cause.name()))
                .set(SINCE, n(now))
                .set(EXPIRES_AT, n(expiresAt));
        return write.setExpression(VERSION, nextVersion(write));
    }

    /** A new window whose epoch is the version the same write sets, with empty blocks. */
    static Write resetWindow(Write write) {
        return write.setExpression(WINDOW_EPOCH, nextVersion(write))
                .set(WINDOW_BLOCK, n(0))
                .set(CURRENT_CALLS, n(0))
                .set(CURRENT_FAILED, n(0))
                .set(CURRENT_SLOW, n(0))
                .set(PREVIOUS_CALLS, n(0))
                .set(PREVIOUS_FAILED, n(0))
                .set(PREVIOUS_SLOW, n(0))
                .set(SEQUENCES, emptyMap())
                .remove(CURRENT_FAIL_AT, CURRENT_PRE, PREVIOUS_PRE, PREVIOUS_FAIL_AT);
    }

    private static String nextVersion(Write write) {
        return write.ref(VERSION) + " + " + write.val("one", n(1));
    }

    /** Ends an episode: no lease, no reopen time, no trip counts. */
    static Write endEpisode(Write write) {
        return write.remove(LEASE_OWNER, LEASE_UNTIL, PROBE_AT, ATTEMPTS, WAIT_REASON, TRIPPED);
    }

    /** Into OPEN until {@code probeAt}, after {@code attempts} failed probes; the lease is released. */
    static Write reopen(Write write, long probeAt, int attempts, WaitReason reason) {
        return write.set(PROBE_AT, n(probeAt))
                .set(ATTEMPTS, n(attempts))
                .set(WAIT_REASON, s(reason.name()))
                .remove(LEASE_OWNER, LEASE_UNTIL);
    }

    /** The condition that the item is still at the version the writer read (no transition since). */
    static String atVersion(Write write, FleetItem read) {
        return write.ref(VERSION) + " = " + write.val("read_ver", n(read.version()));
    }

    static AttributeValue s(String text) {
        return AttributeValue.builder().s(text).build();
    }

    static AttributeValue stringMap(Map<String, String> entries) {
        Map<String, AttributeValue> values = new HashMap<>();
        entries.forEach((key, value) -> values.put(key, s(value)));
        return AttributeValue.builder().m(values).build();
    }

    static AttributeValue emptyMap() {
        return AttributeValue.builder().m(Map.of()).build();
    }

    static AttributeValue n(long number) {
        return AttributeValue.builder().n(Long.toString(number)).build();
    }
}
