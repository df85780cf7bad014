package io.breaker.observability;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Just enough PromQL reading to list the metric names an expression selects. */
final class PromQl {

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGE = Pattern.compile("\\[[^]]*]");
    private static final Pattern LABEL_LIST =
            Pattern.compile("\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w:.])([a-zA-Z_:][\\w:]*)(\\s*\\()?");
    private static final Set<String> KEYWORDS = Set.of(
            "and",
            "or",
            "unless",
            "bool",
            "offset",
            "by",
            "without",
            "on",
            "ignoring",
            "group_left",
            "group_right",
            "inf",
            "nan");

    private PromQl() {}

    /** The metric names {@code expression} selects: identifiers that are no function, keyword or label. */
    static Set<String> metricNames(String expression) {
        String stripped = STRING.matcher(expression).replaceAll("\"\"");
        stripped = MATCHERS.matcher(stripped).replaceAll(" ");
        stripped = RANGE.matcher(stripped).replaceAll(" ");
        stripped = LABEL_LIST.matcher(stripped).replaceAll(" ");
        Set<String> names = new LinkedHashSet<>();
        Matcher matcher = IDENTIFIER.matcher(stripped);
        while (matcher.find()) {
            boolean function = matcher.group(2) != null;
            String name = matcher.group(1);
            if (!function && !KEYWORDS.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                names.add(name);
            }
        }
        return names;
    }
}
