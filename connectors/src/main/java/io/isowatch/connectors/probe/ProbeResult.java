package io.isowatch.connectors.probe;

import java.time.Duration;

/**
 * What a probe run did.
 *
 * @param serverVersion the database product and version as JDBC reports them
 * @param committed transactions the database committed
 * @param aborted transactions it aborted (serialization failure, deadlock, lock timeout); each was
 *     retried as a new transaction
 * @param unknown transactions whose outcome the client never learnt (0 unless the run failed)
 * @param elapsed wall-clock time from the first session's start to the last session's end
 */
public record ProbeResult(String serverVersion, long committed, long aborted, long unknown, Duration elapsed) {
  /** @return committed + aborted + unknown */
  public long total() {
    return committed + aborted + unknown;
  }
}
