package io.breaker.spring.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Names the starter that goes with the running Spring Boot line. */
public class BootLineFailureAnalyzer extends AbstractFailureAnalyzer<WrongBootLineException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, WrongBootLineException cause) {
        String description = "The breaker starter " + cause.getArtifact() + " is built for Spring Boot "
                + cause.getBuiltFor() + ".x, but this application runs Spring Boot " + cause.getRunning()
                + ". Its health contributor and AOP set-up would not work.";
        String action = "Replace " + cause.getArtifact() + " with " + cause.getRightArtifact()
                + " (same version; breaker-core, breaker-spring and breaker-redis stay as they are).";
        return new FailureAnalysis(description, action, cause);
    }
}
