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
}
