package io.isowatch.checker.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Malformed input in every format: the exact message names file, line or byte offset, the
 * problem and what was expected. In the table, {@code F} stands for the file's path; binary
 * contents are given in hex.
 */
class MalformedInputTest {
  private static final String PLUME = "; expected " + PlumeReader.EXPECTED;
  private static final String AWDIT = "; expected " + AwditReader.EXPECTED;
  private static final String TXN = "; expected " + JsonLinesReader.EXPECTED_TXN;
  private static final String OP = "; expected " + JsonLinesReader.EXPECTED_OP;
  private static final String EMPTY = "F: no transactions; expected at least one";

  @TempDir Path dir;

  static Stream<Arguments> textCases() {
    return Stream.of(
        Arguments.of(HistoryFormat.PLUME, "w(1,1,1,1)\nx(1,2,3,4)\n",
            "F:2: malformed operation 'x(1,2,3,4)'" + PLUME),
        Arguments.of(HistoryFormat.PLUME, "r(1,2,3)\n",
            "F:1: malformed operation 'r(1,2,3)': not four fields" + PLUME),
        Arguments.of(HistoryFormat.PLUME, "r(1,2,3,4,5)\n",
            "F:1: malformed operation 'r(1,2,3,4,5)': not four fields" + PLUME),
        Arguments.of(HistoryFormat.PLUME, "r(1,a,3,4)\n",
            "F:1: value 'a' is not a 64-bit integer" + PLUME),
        Arguments.of(HistoryFormat.PLUME, "r(1,2,3,-2)\n",
            "F:1: transaction -2 is negative" + PLUME),
        Arguments.of(HistoryFormat.PLUME, "r(-1,2,3,4)\n", "F:1: key -1 is negative" + PLUME),
        Arguments.of(HistoryFormat.PLUME, "r(1,,3,4)\n", "F:1: value is empty" + PLUME),
        Arguments.of(HistoryFormat.PLUME, "r(1,2,99999999999999999999,4)\n",
            "F:1: session '99999999999999999999' is not a 64-bit integer" + PLUME),
        Arguments.of(HistoryFormat.PLUME, "w(1,0,1,1)\n",
            "F:1: write of value 0, which Plume reserves for every key's initial value; "
                + "expected a value >= 1"),
        Arguments.of(HistoryFormat.PLUME, "w(1,0,0,0)\nr(1,0,0,0)\n",
            "F:2: transaction 0 of session 0 began with writes of 0, so it is the initial state, which"
                + " holds only writes of 0; expected w(K,0,0,0)"),
        Arguments.of(HistoryFormat.PLUME, "w(1,0,0,0)\nw(1,1,1,1)\nw(2,0,1,1)\n",
            "F:3: write of value 0, which Plume reserves for every key's initial value; "
                + "expected a value >= 1"),
        Arguments.of(HistoryFormat.PLUME, "r(1,0,0,0)\nw(1,0,0,0)\n",
            "F:2: write of value 0, which Plume reserves for every key's initial value; "
                + "expected a value >= 1"),
        Arguments.of(HistoryFormat.PLUME, "w(1,5,1,1)\nw(1,5,2,2)\n",
            "F:2: value 5 written twice to key 1 (first by T1); values must be unique per key"),
        Arguments.of(HistoryFormat.PLUME, "r(1,1,1,1)\nr(1,1,1,2)\nr(1,1,1,1)\n",
            "F:3: transaction 1 continues after its session started another transaction; expected "
                + "the lines of a transaction within one session, before its session's next "
                + "transaction"),
        Arguments.of(HistoryFormat.PLUME, "r(1,1,1,1)\nr(1,1,2,1)\n",
            "F:2: transaction 1 appears in session 2 but began in session 1; expected the lines of "
                + "a transaction within one session, before its session's next transaction"),
        // transaction numbers far beyond the file's size are kept in a hash table, not the array
        Arguments.of(HistoryFormat.PLUME, "r(1,1,1,4000000000)\nr(1,1,1,2)\nr(1,1,1,4000000000)\n",
            "F:3: transaction 4000000000 continues after its session started another transaction; "
                + "expected the lines of a transaction within one session, before its session's "
                + "next transaction"),
        Arguments.of(HistoryFormat.PLUME, "r(1,1,1,3000)\nr(1,1,2,3000)\n",
            "F:2: transaction 3000 appears in session 2 but began in session 1; expected the lines "
                + "of a transaction within one session, before its session's next transaction"),
        Arguments.of(HistoryFormat.AWDIT, "w 0 0\n=====\nr 1\n",
            "F:3: malformed line 'r 1'" + AWDIT),
        Arguments.of(HistoryFormat.AWDIT, "x 1 2\n", "F:1: malformed line 'x 1 2'" + AWDIT),
        Arguments.of(HistoryFormat.AWDIT, "r x 1\n",
            "F:1: key 'x' is not a non-negative integer" + AWDIT),
        Arguments.of(HistoryFormat.AWDIT, "w 1 1\n---\nw 1 1\n",
            "F:3: value 1 written twice to key 1 (first by T1); values must be unique per key"),
        Arguments.of(HistoryFormat.EDN, "{:type :ok, :process 0, :value [[:r 1 nil]\n",
            "F:1: line ends before ']' at column 43; expected ']'"),
        Arguments.of(HistoryFormat.EDN, "{:type :ok :process}\n",
            "F:1: map has a key without a value at column 20; expected a value after the key"),
        Arguments.of(HistoryFormat.EDN, "{:type :ok} {}\n",
            "F:1: text after the value at column 13; expected one EDN value per line"),
        Arguments.of(HistoryFormat.EDN, "[1 2]\n",
            "F:1: not a map; expected " + EdnReader.EXPECTED_OP),
        Arguments.of(HistoryFormat.EDN, "{:type :okay, :process 0, :value []}\n",
            "F:1: :type :okay; expected :invoke, :ok, :fail or :info"),
        Arguments.of(HistoryFormat.EDN, "{:process 0, :value []}\n",
            "F:1: no :type; expected :invoke, :ok, :fail or :info"),
        Arguments.of(HistoryFormat.EDN, "{:type :ok, :process 0, :value nil}\n",
            "F:1: :value is not a vector of micro-ops; expected " + EdnReader.EXPECTED_OP),
        Arguments.of(HistoryFormat.EDN, "{:type :ok, :process 0, :value [[:put 1 2]]}\n",
            "F:1: unknown micro-op :put; expected " + EdnReader.EXPECTED_MOP),
        Arguments.of(HistoryFormat.EDN, "{:type :ok, :process 0, :value [[:r 1]]}\n",
            "F:1: malformed micro-op [:r 1]; expected " + EdnReader.EXPECTED_MOP),
        Arguments.of(HistoryFormat.EDN, "{:type :ok, :process 0, :value [[:w 1 \"a\"]]}\n",
            "F:1: written value \"a\" is not a 64-bit integer; expected an integer"),
        Arguments.of(HistoryFormat.EDN,
            "{:type :ok, :process 0, :value [[:w 1 2]]}\n"
                + "{:type :ok, :process 1, :value [[:w 1 2]]}\n",
            "F:2: value 2 written twice to key 1 (first by T1); values must be unique per key"),
        Arguments.of(HistoryFormat.EDN, "[".repeat(10_000) + "\n",
            "F:1: values nested deeper than 256 at column 257; expected at most 256 nested values"),
        // a \\u escape of non-hex digits threw NumberFormatException (found fuzzing the readers, issue 8)
        Arguments.of(HistoryFormat.EDN, "{:type :ok, :value [[:w 1 2]], :x \"\\uZZZZ\"}\n",
            "F:1: \\u escape 'ZZZZ' is not four hex digits at column 38; expected four hex digits"),
        Arguments.of(HistoryFormat.EDN, "{:type :ok, :value [[:w 1 2]], :x \"\\u12\"}\n",
            "F:1: \\u escape '12\"}' is not four hex digits at column 38; expected four hex digits"),
        Arguments.of(HistoryFormat.EDN, "#_".repeat(10_000) + "1\n",
            "F:1: values nested deeper than 256 at column 515; expected at most 256 nested values"),
        Arguments.of(HistoryFormat.EDN, "", EMPTY),
        Arguments.of(HistoryFormat.EDN, "{:type :invoke, :process 0, :value [[:r 1 nil]]}\n",
            EMPTY),
        Arguments.of(HistoryFormat.JSONL, "", EMPTY),
        Arguments.of(HistoryFormat.JSONL, "\n  \n\t\n", EMPTY),
        Arguments.of(HistoryFormat.PLUME, "", EMPTY),
        Arguments.of(HistoryFormat.AWDIT, "---\n=====\n---\n", EMPTY),
        Arguments.of(HistoryFormat.JSONL,
            "{\"session\":\"a\",\"txn\":1,\"ops\":[]}\n"
                + "{\"session\":\"b\",\"txn\":1,\"ops\":[]}\n",
            "F:2: transaction label 1 repeats the label of line 1; "
                + "expected a distinct \"txn\" per transaction"),
        Arguments.of(HistoryFormat.EDN,
            "{:index 4, :type :ok, :process 0, :value []}\n"
                + "{:index 4, :type :ok, :process 1, :value []}\n",
            "F:2: transaction label 4 repeats the label of line 1; "
                + "expected a distinct :index per operation"),
        Arguments.of(HistoryFormat.EDN, "{:index -1, :type :ok, :process 0, :value []}\n",
            "F:1: :index -1 is not a non-negative 64-bit integer; expected an index 0, 1, 2, ..."),
        Arguments.of(HistoryFormat.EDN,
            "{:index 99999999999999999999, :type :ok, :process 0, :value []}\n",
            "F:1: :index 99999999999999999999 is not a non-negative 64-bit integer; "
                + "expected an index 0, 1, 2, ..."),
        Arguments.of(HistoryFormat.EDN, "{:index \"3\", :type :ok, :process 0, :value []}\n",
            "F:1: :index \"3\" is not a non-negative 64-bit integer; expected an index 0, 1, 2, ..."),
        Arguments.of(HistoryFormat.PLUME, "x\u0000\u0007\t" + "z".repeat(300_000) + "\n",
            "F:1: malformed operation 'x\\u0000\\u0007\\t" + "z".repeat(76) + "...'" + PLUME),
        Arguments.of(HistoryFormat.AWDIT, "r 1 " + "9".repeat(300_000) + "\n",
            "F:1: value '" + "9".repeat(80) + "...' is not a non-negative integer" + AWDIT),
        Arguments.of(HistoryFormat.JSONL, "{\"" + "a".repeat(300) + "\":1}\n",
            "F:1: unknown field \"" + "a".repeat(80) + "...\" in a transaction" + TXN),
        Arguments.of(HistoryFormat.JSONL, "{\"session\": tru" + "e".repeat(300_000) + "}\n",
            "F:1: malformed JSON: Unrecognized token 'tru" + "e".repeat(77) + "...': was expecting "
                + "(JSON String, Number, Array, Object or token 'null', 'true' or 'false'); "
                + "expected one JSON object per line"),
        Arguments.of(HistoryFormat.EDN,
            "{:type :ok, :process 0, :value [[:r 1" + " 2".repeat(100_000) + "]]}\n",
            "F:1: malformed micro-op [:r 1" + " 2".repeat(37) + " ...; expected "
                + EdnReader.EXPECTED_MOP),
        Arguments.of(HistoryFormat.JSONL, "{\"session\":\"a\",\"session\":\"b\",\"ops\":[]}\n",
            "F:1: malformed JSON: Duplicate field 'session'; expected one JSON object per line"),
        Arguments.of(HistoryFormat.JSONL,
            "{\"session\":\"a\",\"ops\":[{\"f\":\"r\",\"key\":\"x\",\"key\":\"y\"}]}\n",
            "F:1: malformed JSON: Duplicate field 'key'; expected one JSON object per line"),
        Arguments.of(HistoryFormat.JSONL,
            "{\"session\":\"a\",\"ops\":[]} {\"session\":\"b\",\"ops\":[]}\n",
            "F:1: text after the transaction object; expected one JSON object per line"),
        Arguments.of(HistoryFormat.EDN, "{:type :ok, :type :fail, :process 0, :value []}\n",
            "F:1: map key :type repeated at column 13; expected distinct keys in a map"),
        Arguments.of(HistoryFormat.EDN, "{:type :ok, :process 0, :value [], :x #{1 1}}\n",
            "F:1: set element 1 repeated at column 43; expected distinct elements in a set"),
        Arguments.of(HistoryFormat.JSONL, "{\"session\": }\n",
            "F:1: malformed JSON: Unexpected character ('}' (code 125)): expected a value; "
                + "expected one JSON object per line"),
        Arguments.of(HistoryFormat.JSONL, "[1]\n", "F:1: found an array" + TXN),
        Arguments.of(HistoryFormat.JSONL, "{\"sesion\":\"s\",\"ops\":[]}\n",
            "F:1: unknown field \"sesion\" in a transaction" + TXN),
        Arguments.of(HistoryFormat.JSONL, "{\"ops\":[]}\n",
            "F:1: transaction without \"session\"" + TXN),
        Arguments.of(HistoryFormat.JSONL, "{\"session\":\"s\",\"status\":\"done\",\"ops\":[]}\n",
            "F:1: status \"done\"; expected \"committed\", \"aborted\" or \"unknown\""),
        Arguments.of(HistoryFormat.JSONL,
            "{\"session\":\"s\",\"ops\":[]}\n"
                + "{\"session\":\"s\",\"ops\":[{\"f\":\"w\",\"key\":\"x\"}]}\n",
            "F:2: \"w\" without an integer \"value\"; expected an integer value"),
        Arguments.of(HistoryFormat.JSONL,
            "{\"session\":\"s\",\"ops\":[{\"f\":\"d\",\"key\":\"x\"}]}\n",
            "F:1: unknown operation \"d\"; expected \"r\", \"w\" or \"append\""),
        Arguments.of(HistoryFormat.JSONL, "{\"session\":\"s\",\"ops\":[{\"f\":\"r\"}]}\n",
            "F:1: operation without \"key\"" + OP),
        Arguments.of(HistoryFormat.JSONL,
            "{\"session\":\"s\",\"ops\":[{\"f\":\"r\",\"key\":\"x\",\"value\":\"v\"}]}\n",
            "F:1: \"value\" is the string \"v\"; "
                + "expected an integer, null or an array of integers"),
        Arguments.of(HistoryFormat.JSONL,
            "{\"session\":\"s\",\"ops\":[{\"f\":\"w\",\"key\":\"x\","
                + "\"value\":99999999999999999999}]}\n",
            "F:1: \"value\" 99999999999999999999 is out of the 64-bit range; "
                + "expected a 64-bit integer"),
        Arguments.of(HistoryFormat.JSONL,
            "{\"session\":\"s\",\"ops\":[{\"f\":\"w\",\"key\":\"x\",\"value\":1},"
                + "{\"f\":\"w\",\"key\":\"x\",\"value\":1}]}\n",
            "F:1: value 1 written twice to key x (first by T1); values must be unique per key"));
  }

  @ParameterizedTest(name = "{0}: {2}")
  @MethodSource("textCases")
  void textInput(HistoryFormat format, String content, String message) throws Exception {
    Path file = dir.resolve("bad." + format.cliName());
    Files.writeString(file, content, StandardCharsets.UTF_8);
    assertThat(failure(file, format).getMessage()).isEqualTo(message.replace("F:", file + ":"));
  }

  @Test
  void devNullHasNoTransactions() {
    Path devNull = Path.of("/dev/null");
    assertThat(failure(devNull, HistoryFormat.JSONL).getMessage())
        .isEqualTo("/dev/null: no transactions; expected at least one");
  }

  @Test
  void cobraLogsWithoutRecordsHaveNoTransactions() throws Exception {
    Path history = Files.createDirectory(dir.resolve("cobra"));
    Files.write(history.resolve("s1.log"), new byte[0]);
    assertThat(failure(history, HistoryFormat.COBRA).getMessage())
        .isEqualTo(history + ": no transactions; expected at least one");
  }

  @Test
  void cobraTransactionIdRepeatedInAnotherLog() throws Exception {
    Path history = Files.createDirectory(dir.resolve("cobra-twice"));
    byte[] s1c1 = HexFormat.of().parseHex("53" + "0000000000000001" + "43" + "0000000000000001");
    Files.write(history.resolve("a.log"), s1c1);
    Files.write(history.resolve("b.log"), s1c1);
    assertThat(failure(history, HistoryFormat.COBRA).getMessage())
        .isEqualTo(history.resolve("b.log") + ": byte 0: transaction 1 already started in a.log "
            + "at byte 0; expected a distinct txn id per transaction");
  }

  private static final String DBCOP_HEADER = "00".repeat(40) + "00".repeat(24);

  /** @return a dbcop read event of variable 1 and the given little-endian u64 value, in hex */
  private static String read(String valueHex) {
    return "00" + "0100000000000000" + valueHex + "01";
  }

  static Stream<Arguments> binaryCases() {
    String s1 = "0100000000000000"; // u64 1, little-endian
    String event = "01" + "0100000000000000" + "0500000000000000" + "01";
    return Stream.of(
        Arguments.of(HistoryFormat.DBCOP, "0000000000000000" + "0a000000",
            "F: byte 8: file ends inside the header's node count; expected more bytes"),
        Arguments.of(HistoryFormat.DBCOP, "00".repeat(40) + "ffffffffffffff7f",
            "F: byte 40: info length 9223372036854775807 exceeds what the rest of the file "
                + "can hold; expected at most 0"),
        Arguments.of(HistoryFormat.DBCOP, DBCOP_HEADER + s1 + s1 + s1 + event + "02",
            "F: byte 106: transaction's success flag is byte 2; expected a bool (0 or 1)"),
        Arguments.of(HistoryFormat.DBCOP, DBCOP_HEADER + s1 + s1 + s1 + event + "01" + "ff",
            "F: byte 107: bytes after the last session; expected the end of the file"),
        Arguments.of(HistoryFormat.DBCOP,
            DBCOP_HEADER + s1 + s1 + s1 + "01" + "0100000000000000" + "0000000000000000" + "01"
                + "01",
            "F: byte 88: write of value 0, which dbcop reserves for every variable's initial "
                + "value; expected a value >= 1"),
        Arguments.of(HistoryFormat.COBRA,
            "53" + "0000000000000001" + "43" + "0000000000000001" + "53" + "0000000000000001",
            "F: byte 18: transaction 1 already started in s1.log at byte 0; "
                + "expected a distinct txn id per transaction"),
        Arguments.of(HistoryFormat.DBCOP, DBCOP_HEADER + s1 + s1 + s1 + read("0000000000000080"),
            "F: byte 88: value 9223372036854775808 is out of the signed 64-bit range; "
                + "expected a value below 2^63"),
        Arguments.of(HistoryFormat.DBCOP, DBCOP_HEADER + s1 + s1 + s1 + read("0100000000000080"),
            "F: byte 88: value 9223372036854775809 is out of the signed 64-bit range; "
                + "expected a value below 2^63"),
        Arguments.of(HistoryFormat.DBCOP, DBCOP_HEADER + s1 + s1 + s1 + read("0200000000000080"),
            "F: byte 88: value 9223372036854775810 is out of the signed 64-bit range; "
                + "expected a value below 2^63"),
        Arguments.of(HistoryFormat.DBCOP, DBCOP_HEADER + s1 + s1 + s1 + read("ffffffffffffffff"),
            "F: byte 88: value 18446744073709551615 is out of the signed 64-bit range; "
                + "expected a value below 2^63"),
        Arguments.of(HistoryFormat.COBRA, "53" + "0000000000000001" + "58",
            "F: byte 9: unknown record tag 'X' (0x58); expected a record tag S, W, R or C"),
        Arguments.of(HistoryFormat.COBRA, "53" + "0000000000000001" + "57" + "00000000",
            "F: byte 10: file ends inside the write record's writeId; expected more bytes"),
        Arguments.of(HistoryFormat.COBRA, "53" + "0000000000000001" + "43" + "0000000000000002",
            "F: byte 9: commit of transaction 2 inside transaction 1; expected C 1"),
        Arguments.of(HistoryFormat.COBRA,
            "57" + "0000000000000010" + "0000000000000001" + "0000000000000001",
            "F: byte 0: write outside any transaction; expected S before it"),
        Arguments.of(HistoryFormat.COBRA,
            "53" + "0000000000000001" + "52" + "00000000bebeebee" + "0000000023332333"
                + "0000000000000001" + "0000000000000000",
            "F: byte 9: read with reserved writeId 0x23332333; expected the writeId of a write"));
  }

  @ParameterizedTest(name = "{0}: {2}")
  @MethodSource("binaryCases")
  void binaryInput(HistoryFormat format, String hex, String message) throws Exception {
    Path history = dir.resolve("bad-" + format.cliName());
    Files.createDirectory(history);
    Path file = history.resolve(format == HistoryFormat.DBCOP ? "history.bincode" : "s1.log");
    Files.write(file, HexFormat.of().parseHex(hex));
    assertThat(failure(history, format).getMessage()).isEqualTo(message.replace("F:", file + ":"));
  }

  private static HistoryFormatException failure(Path path, HistoryFormat format) {
    HistoryFormatException e = catchThrowableOfType(HistoryFormatException.class,
        () -> HistoryFiles.read(path, format, null));
    assertThat(e).as("HistoryFormatException for " + path).isNotNull();
    return e;
  }
}
