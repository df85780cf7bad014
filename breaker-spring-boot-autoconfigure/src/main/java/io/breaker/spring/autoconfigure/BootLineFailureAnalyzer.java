package io.breaker.spring.autoconfigure;

import io.breaker.spring.autoconfigure.StarterPresenceCheck.MissingStarterException;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;

/** Names the starter that goes with the running Spring Boot line: instead of the wrong one, or where none is. */
public class BootLineFailureAnalyzer implements FailureAnalyzer {

    @Override
    public @Nullable FailureAnalysis analyze(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof WrongBootLineException wrong) {
                return wrongLine(wrong);
            }
            if (cause instanceof MissingStarterException missing) {
                return missing(missing);
            }
        }
        return null;
    }

    private static FailureAnalysis wrongLine(WrongBootLineException cause) {
        String description = "The breaker starter " + cause.getArtifact() + " is built for Spring Boot "
                + cause.getBuiltFor() + ".x, but this application runs Spring Boot " + cause.getRunning()
                + ". Its health contributor and AOP set-up would not work.";
        String action = "Replace " + cause.getArtifact() + " with " + cause.getRightArtifact()
                + " (same version; breaker-core, breaker-spring-boot-autoconfigure and breaker-redis stay as they are).";
        return new FailureAnalysis(description, action, cause);
    }

    private static FailureAnalysis missing(MissingStarterException cause) {
        String description =
                "breaker-spring-boot-autoconfigure is on the class path without a breaker starter (breaker-redis "
                        + "brings none), so the breakers' health contributor would be missing.";
        String action = "Add " + cause.getRightArtifact() + ", the starter for Spring Boot " + cause.getRunning()
                + ", next to the other breaker modules.";
        return new FailureAnalysis(description, action, cause);
    }
}
