package io.isowatch.stream.assembly;

/**
 * Why the session assembler sends something to the dead-letter topic.
 *
 * @param reasonClass short bounded class, the tag of the {@code isowatch.dlq.records} meter and the
 *     prefix of the dead letter's reason (e.g. {@code sequence-gap}, {@code conflicting-duplicate})
 * @param detail what exactly is wrong, naming the transaction, session, field or offset
 */
record Rejection(String reasonClass, String detail) {
  /** @return the dead letter's reason: {@code "<reasonClass>: <detail>"} */
  String reason() {
    return reasonClass + ": " + detail;
  }

  /**
   * @param subject what the detail is about, e.g. {@code "WRITE of t1 at opIndex 2"}; the detail
   *     continues it (starting with a space or a colon)
   * @return the same class with {@code subject} put before the detail
   */
  Rejection about(String subject) {
    return new Rejection(reasonClass, subject + detail);
  }
}
