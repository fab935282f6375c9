package io.isowatch.checker.format;

import java.nio.file.Path;

/**
 * A history file is malformed: names the file, the place (a 1-based line for text formats, a byte
 * offset for binary ones), the problem found and what was expected there.
 *
 * <p>The message reads {@code FILE:LINE: problem; expected ...} for text formats and {@code FILE:
 * byte N: problem; expected ...} for binary ones ({@code FILE: problem; expected ...} when the
 * problem has no place, e.g. a directory without log files). The CLI prints it and exits with code
 * 2.
 */
public final class HistoryFormatException extends Exception {
  private static final long serialVersionUID = 1L;

  private final transient Path file;
  private final long line;
  private final long byteOffset;
  private final String problem;
  private final String expected;

  private HistoryFormatException(
      Path file, long line, long byteOffset, String problem, String expected) {
    super(render(file, line, byteOffset, problem, expected));
    this.file = file;
    this.line = line;
    this.byteOffset = byteOffset;
    this.problem = problem;
    this.expected = expected;
  }

  /**
   * @param file the file being read
   * @param line the 1-based line where the problem is
   * @param problem what is wrong, e.g. {@code "unknown operation 'x'"}
   * @param expected what would have been valid there, or {@code null}
   * @return the exception for a text format
   */
  public static HistoryFormatException atLine(
      Path file, long line, String problem, String expected) {
    return new HistoryFormatException(file, line, -1, problem, expected);
  }

  /**
   * @param file the file being read
   * @param byteOffset the 0-based offset of the first byte of the bad record or field
   * @param problem what is wrong
   * @param expected what would have been valid there, or {@code null}
   * @return the exception for a binary format
   */
  public static HistoryFormatException atByte(
      Path file, long byteOffset, String problem, String expected) {
    return new HistoryFormatException(file, -1, byteOffset, problem, expected);
  }

  /**
   * @param file the file or directory
   * @param problem what is wrong
   * @param expected what would have been valid, or {@code null}
   * @return the exception for a problem that has no line or offset
   */
  public static HistoryFormatException whole(Path file, String problem, String expected) {
    return new HistoryFormatException(file, -1, -1, problem, expected);
  }

  /** How many characters of input a message quotes at most, before {@code ...}. */
  static final int EXCERPT_CHARS = 80;

  /**
   * Makes a piece of input fit to be quoted in a message, whatever its length and bytes.
   *
   * @param input text taken from the history file (a line, a field, a token)
   * @return its first {@value #EXCERPT_CHARS} characters followed by {@code ...} when longer,
   *     with control characters escaped as {@code \n}, {@code \r}, {@code \t} or a backslash,
   *     {@code u} and four hex digits, so that the message stays on one line
   */
  static String excerpt(String input) {
    int end = input.length();
    if (end > EXCERPT_CHARS) {
      end = Character.isHighSurrogate(input.charAt(EXCERPT_CHARS - 1))
          ? EXCERPT_CHARS - 1 : EXCERPT_CHARS;
    }
    StringBuilder sb = new StringBuilder(end + 8);
    for (int i = 0; i < end; i++) {
      char c = input.charAt(i);
      if (c == '\n') {
        sb.append("\\n");
      } else if (c == '\r') {
        sb.append("\\r");
      } else if (c == '\t') {
        sb.append("\\t");
      } else if (Character.isISOControl(c)) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return end < input.length() ? sb.append("...").toString() : sb.toString();
  }

  private static String render(
      Path file, long line, long byteOffset, String problem, String expected) {
    StringBuilder sb = new StringBuilder().append(file);
    if (line >= 0) {
      sb.append(':').append(line);
    } else if (byteOffset >= 0) {
      sb.append(": byte ").append(byteOffset);
    }
    sb.append(": ").append(problem);
    if (expected != null) {
      sb.append("; expected ").append(expected);
    }
    return sb.toString();
  }

  /** @return the file (or directory) being read */
  public Path file() {
    return file;
  }

  /** @return the 1-based line of the problem, -1 for binary formats or whole-file problems */
  public long line() {
    return line;
  }

  /** @return the 0-based byte offset of the problem, -1 for text formats or whole-file problems */
  public long byteOffset() {
    return byteOffset;
  }

  /** @return what is wrong, without the place */
  public String problem() {
    return problem;
  }

  /** @return what would have been valid, or {@code null} */
  public String expected() {
    return expected;
  }
}
