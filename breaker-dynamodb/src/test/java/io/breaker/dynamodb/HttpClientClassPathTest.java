package io.breaker.dynamodb;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.SdkHttpService;

import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store brings the SDK's URLConnection client and no other: Apache HttpClient 5 on an application's
 * class path would become Spring's default client for RestClient and RestTemplate, and it repeats requests
 * answered 503 or 429 by itself, hiding them (and their Retry-After) from the application's breakers.
 */
class HttpClientClassPathTest {

    @Test
    void theSdksOnlyHttpClientIsTheUrlConnectionOne() {
        assertThat(ServiceLoader.load(SdkHttpService.class).stream()
                        .map(provider -> provider.type().getName())
                        .toList())
                .containsExactly("software.amazon.awssdk.http.urlconnection.UrlConnectionSdkHttpService");
    }

    @Test
    void noApacheHttpClientReachesTheApplication() {
        assertThat(present("org.apache.hc.client5.http.impl.classic.HttpClients"))
                .isFalse();
        assertThat(present("org.apache.http.impl.client.HttpClients")).isFalse();
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, HttpClientClassPathTest.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException absent) {
            return false;
        }
    }
}
