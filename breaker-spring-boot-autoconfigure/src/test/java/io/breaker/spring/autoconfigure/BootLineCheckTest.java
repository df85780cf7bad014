package io.breaker.spring.autoconfigure;

import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.io.support.SpringFactoriesLoader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each starter on its own line starts; the other line's starter stops start-up with a message that
 * names this line's starter. Runs on every line, so both directions are tested: on Boot 3 with the
 * Boot 4 starter's check, on Boot 4 with the Boot 3 starter's.
 */
@ExtendWith(OutputCaptureExtension.class)
@Tag(BootLine.TAG)
class BootLineCheckTest {

    @Configuration(proxyBeanMethods = false)
    static class App {}

    @Test
    void theStarterOfThisLineRegistersItsCheck() {
        assertThat(SpringFactoriesLoader.forDefaultResourceLocation(getClass().getClassLoader())
                        .load(ApplicationContextInitializer.class))
                .hasAtLeastOneElementOfType(BootLine.lineCheck());
    }

    @Test
    void theCheckOfThisLinePasses() throws Exception {
        BootLineCheck check = BootLine.lineCheck().getDeclaredConstructor().newInstance();
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            assertThatNoException().isThrownBy(() -> check.initialize(context));
        }
    }

    @Test
    void theOtherLinesStarterStopsStartUpAndNamesTheStarterForThisLine(CapturedOutput output) throws IOException {
        int otherLine = BootLine.MAJOR == 3 ? 4 : 3;
        SpringApplication application = new SpringApplication(App.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.addInitializers(new BootLineCheck(otherLine));

        assertThatThrownBy(() -> close(application.run())).isInstanceOf(WrongBootLineException.class);

        assertThat(output)
                .contains(
                        "APPLICATION FAILED TO START",
                        "The breaker starter " + BootLine.OTHER_STARTER + " is built for Spring Boot " + otherLine
                                + ".x, but this application runs Spring Boot " + BootLine.MAJOR,
                        "Replace " + BootLine.OTHER_STARTER + " with " + BootLine.STARTER);
        if (BootLine.MAJOR == 4) {
            // The README shows this case, Boot 3's starter on Boot 4, as the application prints it.
            String readme = readme();
            int at = readme.indexOf("The wrong starter stops start-up");
            Matcher shown = Pattern.compile("```text\n(.*?)```", Pattern.DOTALL).matcher(readme);
            assertThat(at >= 0 && shown.find(at)).as("the README's example").isTrue();
            assertThat(output.toString().replace("\r\n", "\n"))
                    .contains(shown.group(1).strip());
        }
    }

    /** The README at the repository's root, above the working directory (each line's module runs this). */
    private static String readme() throws IOException {
        Path dir = Path.of("").toAbsolutePath();
        while (!Files.exists(dir.resolve("README.md")) || !Files.exists(dir.resolve("breaker-core"))) {
            dir = dir.getParent();
            assertThat(dir).as("the repository's root").isNotNull();
        }
        return Files.readString(dir.resolve("README.md"));
    }

    @Test
    void onlyTheTwoLinesAreKnown() {
        assertThatThrownBy(() -> new BootLineCheck(5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("line must be 3 or 4, was 5");
    }

    private static void close(ConfigurableApplicationContext context) {
        context.close();
    }
}
