package io.breaker.observability;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The metric-name reader the dashboard check relies on: it must find every name, and nothing else. */
class PromQlTest {

    @Test
    void findsTheMetricsAndSkipsFunctionsKeywordsLabelsStringsAndRanges() {
        assertThat(PromQl.metricNames(
                        "sum by (job, name) (rate(breaker_calls_seconds_count{name=~\"a|b\", x=\"up\"}[1m]))"
                                + " / on (job) group_left (name) breaker_state == 1 and breaker_x offset 5m"))
                .containsExactly("breaker_calls_seconds_count", "breaker_state", "breaker_x");
        assertThat(PromQl.metricNames("round(sum(increase(c_total[10m]))) > 3 unless count(up)"))
                .containsExactly("c_total", "up");
        assertThat(PromQl.metricNames("max_over_time(breaker_state{state=\"open\"}[15m:1s]) == 0"))
                .containsExactly("breaker_state");
    }
}
