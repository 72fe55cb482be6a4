package org.streambench.runner.results;

import java.util.List;

/** What the verification after a run found; {@code details} names the first mismatches. */
public record Verification(long checked, long mismatches, long expectedInserts, long rowDelta, List<String> details) {}
