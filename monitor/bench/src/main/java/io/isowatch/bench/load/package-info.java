/**
 * Timing the loading of a history file and its check in one cold JVM, as {@code isowatch check}
 * does them, without the launcher: the harness of issue 20's reader work.
 */
package io.isowatch.bench.load;
