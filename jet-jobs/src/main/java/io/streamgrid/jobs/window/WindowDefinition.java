package io.streamgrid.jobs.window;

/**
 * Which event-time windows an event belongs to. Immutable; sizes in milliseconds, validated.
 * Serializable because job definitions travel to the members inside a Jet job.
 */
public sealed interface WindowDefinition extends java.io.Serializable {

    /** Fixed, non-overlapping windows {@code [k*size, (k+1)*size)}. */
    static WindowDefinition tumbling(final long sizeMs) {
        return new Sliding(sizeMs, sizeMs);
    }

    /**
     * Windows of {@code sizeMs} starting every {@code slideMs}; an event belongs to
     * {@code sizeMs / slideMs} of them. {@code sizeMs} must be a multiple of {@code slideMs}.
     */
    static WindowDefinition sliding(final long sizeMs, final long slideMs) {
        return new Sliding(sizeMs, slideMs);
    }

    /** Per-key sessions: events closer than {@code gapMs} to each other share a session. */
    static WindowDefinition session(final long gapMs) {
        return new Session(gapMs);
    }

    /** Tumbling when {@code size == slide}. */
    record Sliding(long size, long slide) implements WindowDefinition {
        public Sliding {
            if (slide <= 0) {
                throw new IllegalArgumentException("slide must be positive, was " + slide);
            }
            if (size <= 0 || size % slide != 0) {
                throw new IllegalArgumentException("size must be a positive multiple of slide " + slide + ", was " + size);
            }
        }

        public boolean isTumbling() {
            return size == slide;
        }
    }

    /** A session ends {@code gap} ms after its last event. */
    record Session(long gap) implements WindowDefinition {
        public Session {
            if (gap <= 0) {
                throw new IllegalArgumentException("session gap must be positive, was " + gap);
            }
        }
    }
}
