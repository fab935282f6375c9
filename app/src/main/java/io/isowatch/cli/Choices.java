package io.isowatch.cli;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The converter of every option whose value is one of a fixed set of names ({@code --level},
 * {@code --format}, {@code --isolation}, ...): it parses with the type's own lenient parser (case
 * and {@code _} ignored where that parser ignores them) and refuses anything else with one message,
 * {@code 'snapshot' is not one of read-committed, repeatable-read, serializable}, which {@link
 * IsowatchCli}'s usage-error handler prefixes with the option's name. No Java class name appears.
 *
 * @param <T> the option's type
 */
abstract class Choices<T> implements ITypeConverter<T> {
  private final Function<String, T> parse;
  private final List<String> names;

  /**
   * @param parse the type's parser; throws {@link IllegalArgumentException} for a name it does not
   *     know
   * @param names the accepted names, in the order the message lists them
   */
  protected Choices(Function<String, T> parse, List<String> names) {
    this.parse = parse;
    this.names = List.copyOf(names);
  }

  /** @return the names of {@code values}, in order */
  @SafeVarargs
  static <E> List<String> names(Function<E, String> name, E... values) {
    return Arrays.stream(values).map(name).toList();
  }

  /** @return e.g. {@code 'snapshot' is not one of read-committed, repeatable-read, serializable} */
  static String notOneOf(String value, List<String> names) {
    return "'" + value + "' is not one of " + String.join(", ", names);
  }

  @Override
  public T convert(String value) {
    try {
      return parse.apply(value);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(notOneOf(value, names));
    }
  }
}
