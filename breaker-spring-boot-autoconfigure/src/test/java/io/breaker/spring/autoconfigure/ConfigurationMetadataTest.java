package io.breaker.spring.autoconfigure;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.breaker.BreakerConfig;
import io.breaker.Setting;
import io.breaker.spring.config.PropertyValues;
import org.junit.jupiter.api.Test;
import org.springframework.beans.BeanUtils;

import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The IDE metadata the starter ships says about every breaker setting what its definition says: a
 * setting added to {@link BreakerConfig#settings()} without a field to bind it, or with a description
 * or a default that drifted, fails here.
 */
class ConfigurationMetadataTest {

    private static final String DEFAULTS = "breakers.defaults.";
    /** The settings set in a breaker's faults section, breakers.faults.<name>, without this prefix. */
    private static final String FAULT = "fault-";
    /** The one section of a breaker's properties that the advice reads, not the breaker: no setting defines it. */
    private static final String RECORD_RESULT = "record-result";
    /** The executor of timed calls: read by the integrations that run them, not by the breaker either. */
    private static final String CALL_TIMEOUT_EXECUTOR = "call-timeout-executor";

    private static final String CALL_TIMEOUT_EXECUTOR_FIELD = "callTimeoutExecutor";

    @Test
    void everyDefinedSettingIsBoundAndDescribedAsItsDefinitionSays() throws IOException {
        Map<String, JsonNode> properties = properties();
        for (Setting<?> setting : sectionSettings()) {
            JsonNode property = properties.get(DEFAULTS + setting.propertyName());
            assertThat(property)
                    .as("metadata for %s%s (a field in BreakerProperties.Settings)", DEFAULTS, setting.propertyName())
                    .isNotNull();
            assertThat(property.path("description").asText()).as(setting.name()).isEqualTo(setting.description());
            assertThat(property.path("type").asText()).as(setting.name()).isEqualTo(expectedType(setting));
            if (setting.defaultValue() == null) {
                assertThat(property.has("defaultValue")).as(setting.name()).isFalse();
            } else {
                assertThat(PropertyValues.of(json(property.get("defaultValue"))))
                        .as("default of " + setting.name())
                        .isEqualTo(PropertyValues.of((Object) setting.defaultValue()));
            }
        }
    }

    @Test
    void everyBoundSettingHasADefinition() throws IOException {
        Set<String> bound = Arrays.stream(BeanUtils.getPropertyDescriptors(BreakerProperties.Settings.class))
                .map(PropertyDescriptor::getName)
                .filter(name -> !name.equals("class"))
                .filter(name -> !name.equals("recordResult"))
                .filter(name -> !name.equals(CALL_TIMEOUT_EXECUTOR_FIELD))
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> inMetadata = properties().keySet().stream()
                .filter(name -> name.startsWith(DEFAULTS))
                .map(name -> name.substring(DEFAULTS.length()))
                .filter(name -> !name.startsWith(RECORD_RESULT + "."))
                .filter(name -> !name.equals(CALL_TIMEOUT_EXECUTOR))
                .collect(Collectors.toCollection(TreeSet::new));

        assertThat(bound)
                .containsExactlyInAnyOrderElementsOf(
                        sectionSettings().stream().map(Setting::name).toList());
        assertThat(inMetadata)
                .containsExactlyInAnyOrderElementsOf(
                        sectionSettings().stream().map(Setting::propertyName).toList());
    }

    @Test
    void recordResultIsDescribedWithItsTwoRules() throws IOException {
        Map<String, JsonNode> properties = properties();

        assertThat(properties
                        .get(DEFAULTS + RECORD_RESULT + ".http-status")
                        .path("type")
                        .asText())
                .isEqualTo("java.util.List<java.lang.String>");
        assertThat(properties
                        .get(DEFAULTS + RECORD_RESULT + ".predicate")
                        .path("type")
                        .asText())
                .isEqualTo("java.lang.String");
        assertThat(properties
                        .get(DEFAULTS + RECORD_RESULT + ".predicate")
                        .path("description")
                        .asText())
                .contains("io.breaker.spring.ResultPredicate");
    }

    @Test
    void everyFaultSettingIsBoundInTheFaultsSectionUnderItsShortName() throws IOException {
        Set<String> bound = Arrays.stream(BeanUtils.getPropertyDescriptors(BreakerProperties.Faults.class))
                .map(PropertyDescriptor::getName)
                .filter(name -> !name.equals("class"))
                .map(PropertyValues::dashed)
                .collect(Collectors.toCollection(TreeSet::new));

        assertThat(bound)
                .containsExactlyInAnyOrderElementsOf(BreakerConfig.settings().stream()
                        .map(Setting::propertyName)
                        .filter(name -> name.startsWith(FAULT))
                        .map(name -> name.substring(FAULT.length()))
                        .toList());
        assertThat(properties().get("breakers.faults").path("type").asText())
                .isEqualTo("java.util.Map<java.lang.String,io.breaker.spring.autoconfigure.BreakerProperties$Faults>");
    }

    /**
     * A setting that can be off (a duration without a default) takes {@code none} in a property file as
     * at runtime: the IDE offers it as a value, next to any duration.
     */
    @Test
    void everySettingThatCanBeOffOffersNone() throws IOException {
        Map<String, JsonNode> hints = hints();
        List<Setting<?>> offNone = sectionSettings().stream()
                .filter(setting -> setting.type() == Duration.class && setting.defaultValue() == null)
                .toList();
        assertThat(offNone).isNotEmpty();
        for (Setting<?> setting : offNone) {
            assertThat(setting.allowed()).as(setting.name()).contains("or none");
            JsonNode hint = hints.get(DEFAULTS + setting.propertyName());
            assertThat(hint)
                    .as("a hint for %s%s", DEFAULTS, setting.propertyName())
                    .isNotNull();
            List<String> values = new ArrayList<>();
            hint.path("values").forEach(value -> values.add(value.path("value").asText()));
            assertThat(values).as(setting.name()).containsExactly("none");
            assertThat(hint.path("values").get(0).path("description").asText())
                    .as(setting.name())
                    .isNotBlank();
            List<String> providers = new ArrayList<>();
            hint.path("providers")
                    .forEach(provider -> providers.add(provider.path("name").asText()));
            assertThat(providers)
                    .as("%s takes any duration too", setting.name())
                    .containsExactly("any");
        }
    }

    /** The settings of breakers.defaults and breakers.instances.<name>: all but the fault-* ones. */
    private static List<Setting<?>> sectionSettings() {
        return BreakerConfig.settings().stream()
                .filter(setting -> !setting.propertyName().startsWith(FAULT))
                .toList();
    }

    @Test
    void instancesAreTypedSoThatAnIdeCompletesTheirSettingsToo() throws IOException {
        assertThat(properties().get("breakers.instances").path("type").asText())
                .isEqualTo(
                        "java.util.Map<java.lang.String,io.breaker.spring.autoconfigure.BreakerProperties$Settings>");
    }

    private static String expectedType(Setting<?> setting) {
        return setting.type() == List.class
                ? "java.util.List<java.lang.String>"
                : setting.type().getName();
    }

    /** A metadata default as the Java value it stands for, so that it renders as the definition's does. */
    private static Object json(JsonNode value) {
        if (value.isArray()) {
            return List.of();
        }
        if (value.isNumber()) {
            return value.floatValue() == Math.rint(value.floatValue()) ? (Object) value.asText() : value.floatValue();
        }
        String text = value.asText();
        if (text.matches("\\d+[a-z]+")) {
            return org.springframework.boot.convert.DurationStyle.SIMPLE.parse(text);
        }
        return text;
    }

    private static Map<String, JsonNode> hints() throws IOException {
        Map<String, JsonNode> byName = new HashMap<>();
        for (URL url : java.util.Collections.list(
                BreakerProperties.class.getClassLoader().getResources("META-INF/spring-configuration-metadata.json"))) {
            try (InputStream in = url.openStream()) {
                for (JsonNode hint : new ObjectMapper().readTree(in).path("hints")) {
                    if (hint.path("name").asText().startsWith("breakers.")) {
                        byName.put(hint.path("name").asText(), hint);
                    }
                }
            }
        }
        return byName;
    }

    private static Map<String, JsonNode> properties() throws IOException {
        URL metadata = BreakerProperties.class.getResource("/META-INF/spring-configuration-metadata.json");
        assertThat(metadata).isNotNull();
        Map<String, JsonNode> byName = new HashMap<>();
        for (URL url : java.util.Collections.list(
                BreakerProperties.class.getClassLoader().getResources("META-INF/spring-configuration-metadata.json"))) {
            try (InputStream in = url.openStream()) {
                for (JsonNode property : new ObjectMapper().readTree(in).path("properties")) {
                    if (property.path("name").asText().startsWith("breakers.")) {
                        byName.put(property.path("name").asText(), property);
                    }
                }
            }
        }
        return byName;
    }
}
