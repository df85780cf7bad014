package io.breaker.boot4;

import io.breaker.boot4.actuate.DynamoStoreHealthIndicator;
import io.breaker.boot4.autoconfigure.DynamoStoreHealthAutoConfiguration;
import io.breaker.dynamodb.DynamoStoreAutoConfiguration;
import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.net.URI;

import static org.assertj.core.api.Assertions.assertThat;

/** The breakerStore health contributor on Boot 4 for a DynamoDB store: present only with that store, always UP. */
class DynamoStoreHealthOnBoot4Test {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DynamoStoreAutoConfiguration.class,
                    BreakerAutoConfiguration.class,
                    HealthContributorAutoConfiguration.class,
                    DynamoStoreHealthAutoConfiguration.class))
            .withBean(
                    DynamoDbClient.class,
                    () -> DynamoDbClient.builder()
                            .endpointOverride(URI.create("http://127.0.0.1:9")) // never called by these tests
                            .region(Region.US_EAST_1)
                            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                            .build());

    @Test
    void theContributorIsUpWithTheStoresDetails() {
        runner.withPropertyValues("breakers.store.type=dynamodb").run(context -> {
            assertThat(context).hasNotFailed();
            Health health = context.getBean("breakerStoreHealthIndicator", DynamoStoreHealthIndicator.class)
                    .health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsKeys("available", "actingAlone", "failureMode", "failedOperations");
        });
    }

    @Test
    void noContributorWithoutTheDynamoDbStore() {
        runner.run(context -> assertThat(context).doesNotHaveBean("breakerStoreHealthIndicator"));
    }

    @Test
    void theContributorCanBeTurnedOff() {
        runner.withPropertyValues("breakers.store.type=dynamodb", "management.health.breakerstore.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean("breakerStoreHealthIndicator"));
    }
}
