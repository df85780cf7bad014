package io.breaker.spring.autoconfigure;

/** A breaker starter found itself on the other Spring Boot line; explained by {@link BootLineFailureAnalyzer}. */
public class WrongBootLineException extends IllegalStateException {

    private final String artifact;
    private final int builtFor;
    private final String rightArtifact;
    private final int running;

    WrongBootLineException(String artifact, int builtFor, String rightArtifact, int running) {
        super(artifact + " is built for Spring Boot " + builtFor + ", but this application runs Spring Boot " + running
                + ": use " + rightArtifact + " instead");
        this.artifact = artifact;
        this.builtFor = builtFor;
        this.rightArtifact = rightArtifact;
        this.running = running;
    }

    /** The starter on the class path, as {@code groupId:artifactId}. */
    public String getArtifact() {
        return artifact;
    }

    public int getBuiltFor() {
        return builtFor;
    }

    /** The starter built for the running line, as {@code groupId:artifactId}. */
    public String getRightArtifact() {
        return rightArtifact;
    }

    public int getRunning() {
        return running;
    }
}
