package io.breaker.sample.line;

import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;

/**
 * What the sample's tests need that differs between Spring Boot lines, for Boot 3. sample-app-boot4
 * has a class of the same name for Boot 4; the sample's tests compile against either.
 */
public final class BootLine {

    /** The major version of Spring Boot these tests run on. */
    public static final int MAJOR = 3;

    private BootLine() {
    }

    /** The port the web server of a started application listens on. */
    public static int port(ApplicationContext context) {
        return ((WebServerApplicationContext) context).getWebServer().getPort();
    }
}
