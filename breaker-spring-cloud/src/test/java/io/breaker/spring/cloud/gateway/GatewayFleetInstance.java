package io.breaker.spring.cloud.gateway;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * One Gateway of {@link GatewayFleetWebFluxTest}, run in its own JVM: a Gateway application on WebFlux
 * with nothing of its own but what the launcher needs. Its routes, breakers and Redis come from the
 * command line, as they would come from a user's {@code application.yml}.
 *
 * <p>Once it is ready it writes its port to {@code --fleet.port-file}. It exits when its standard
 * input closes, so that a test JVM that dies cannot leave it running. (A plain {@code @Configuration},
 * not a {@code @SpringBootConfiguration}: the package's {@code @SpringBootTest}s must never find it.)
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class GatewayFleetInstance {

    public static void main(String[] args) {
        exitWhenParentGoes();
        SpringApplication.run(GatewayFleetInstance.class, args);
    }

    private static void exitWhenParentGoes() {
        Thread watcher = new Thread(
                () -> {
                    try {
                        while (System.in.read() >= 0) {
                            // the parent never writes; end of input means it is gone
                        }
                    } catch (IOException closed) {
                        // the same as end of input
                    }
                    System.exit(0);
                },
                "parent-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }

    @Bean
    ApplicationListener<ApplicationReadyEvent> portFile(@Value("${fleet.port-file}") String path) {
        Path file = Path.of(path);
        return event -> {
            try {
                // Written aside and moved, so that the launcher never reads half a port.
                Path partial = file.resolveSibling(file.getFileName() + ".partial");
                Files.writeString(
                        partial,
                        event.getApplicationContext().getEnvironment().getRequiredProperty("local.server.port"));
                Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }
}
