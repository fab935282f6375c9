package io.isowatch.cli;

import io.isowatch.checker.level.Level;
import io.isowatch.stream.config.EventsInput;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Option converters shared by {@code monitor}, {@code replay} and {@code demo}. */
final class StreamOptions {
  private static final Pattern SIMPLE = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)");

  private StreamOptions() {}

  /**
   * A duration: a number with a unit ({@code 250ms}, {@code 30s}, {@code 15m}, {@code 2h}, {@code
   * 1d}), {@code 0} for none, or ISO-8601 ({@code PT15M}).
   */
  static final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      return parseDuration(value);
    }
  }

  /**
   * @throws TypeConversionException saying the accepted forms
   */
  static Duration parseDuration(String value) {
    String v = value.strip().toLowerCase(Locale.ROOT);
    if (v.equals("0")) {
      return Duration.ZERO;
    }
    Matcher m = SIMPLE.matcher(v);
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "ms" -> Duration.ofMillis(n);
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        default -> Duration.ofDays(n);
      };
    }
    try {
      return Duration.parse(value.strip().toUpperCase(Locale.ROOT));
    } catch (DateTimeParseException e) {
      throw new TypeConversionException("'" + value + "' is not a duration; write e.g. 250ms, 30s, 15m,"
          + " 2h, 1d, 0 or PT15M");
    }
  }

  /** A level by its command-line name ({@link Level#parse}), e.g. {@code serializable}. */
  static final class LevelConverter extends Choices<Level> {
    /** The six levels. */
    LevelConverter() {
      super(Level::parse, names(Level::cliName, Level.values()));
    }
  }

  /** {@code --input}: avro or debezium-outbox. */
  static final class InputConverter extends Choices<EventsInput> {
    /** The inputs. */
    InputConverter() {
      super(EventsInput::ofCliName, names(EventsInput::cliName, EventsInput.values()));
    }
  }
}
