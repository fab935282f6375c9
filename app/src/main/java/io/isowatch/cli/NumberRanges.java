package io.isowatch.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The converters of every numeric option of the commands: ports and counts, each refusing a value
 * outside its range while the command line is parsed, before anything is contacted. The refusal
 * becomes a usage error (exit 2) naming the option ({@link IsowatchCli}'s usage-error handler), e.g.
 * {@code --metrics-port: 70000 is not a port (0-65535, or -1 for none)}.
 */
final class NumberRanges {
  private NumberRanges() {}

  /** An int in {@code [min, max]}, refused as "VALUE is not a KIND (RANGE)". */
  private abstract static class Range implements ITypeConverter<Integer> {
    private final int min;
    private final int max;
    private final String kind;
    private final String range;

    Range(int min, int max, String kind, String range) {
      this.min = min;
      this.max = max;
      this.kind = kind;
      this.range = range;
    }

    /**
     * @throws TypeConversionException if {@code value} is not a whole number in the range
     */
    @Override
    public Integer convert(String value) {
      int n;
      try {
        n = Integer.parseInt(value.strip());
      } catch (NumberFormatException e) {
        throw refusal(value);
      }
      if (n < min || n > max) {
        throw refusal(value);
      }
      return n;
    }

    private TypeConversionException refusal(String value) {
      return new TypeConversionException(value + " is not " + kind + " (" + range + ")");
    }
  }

  /** A TCP port to listen on: 0 to 65535, 0 for a free one. */
  static final class Port extends Range {
    Port() {
      super(0, 65535, "a port", "0-65535");
    }
  }

  /** A TCP port to listen on, or -1 for none: {@code --metrics-port}. */
  static final class PortOrNone extends Range {
    PortOrNone() {
      super(-1, 65535, "a port", "0-65535, or -1 for none");
    }
  }

  /** A count of things (partitions, sessions, transactions...): 1 to 2147483647. */
  static final class Count extends Range {
    Count() {
      super(1, Integer.MAX_VALUE, "a count", "1-" + Integer.MAX_VALUE);
    }
  }

  /**
   * A topic's replication factor: 1 to 32767 (Kafka's {@code short}). Use it with an {@code int}
   * field; picocli would not assign an {@code Integer} to a {@code short}.
   */
  static final class ReplicationFactor extends Range {
    ReplicationFactor() {
      super(1, Short.MAX_VALUE, "a replication factor", "1-" + Short.MAX_VALUE);
    }
  }
}
