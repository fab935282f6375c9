package io.isowatch.checker.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Format names and detection by path and content. */
class HistoryFilesTest {
  private static final String SNIFF_EXPECTED = "expected a JSON object, an EDN map with :type, "
      + "r(K,V,S,T) (Plume) or 'r K V' (AWDIT); name the format with --format";

  @TempDir Path dir;

  @Test
  void formatsHaveCliNamesAndParseThem() {
    assertThat(Arrays.stream(HistoryFormat.values()).map(HistoryFormat::cliName))
        .containsExactly("jsonl", "plume", "awdit", "edn", "dbcop", "cobra");
    assertThat(HistoryFormat.parse(" Plume ")).isEqualTo(HistoryFormat.PLUME);
    assertThatThrownBy(() -> HistoryFormat.parse("xml"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown history format 'xml'; expected one of jsonl, plume, awdit, edn, "
            + "dbcop, cobra");
  }

  @ParameterizedTest
  @CsvSource({
    "sample.plume.txt, PLUME",
    "sample.awdit.txt, AWDIT",
    "list-append.edn, EDN",
    "sample.jsonl, JSONL",
    "sample.dbcop, DBCOP",
    "sample.cobra, COBRA"
  })
  void detectsTheSamples(String resource, HistoryFormat format) throws Exception {
    assertThat(HistoryFiles.detect(Resources.path(resource))).isEqualTo(format);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    "{:index 0 :type :invoke :value []}              | EDN",
    "{\"session\":\"s\",\"ops\":[]}                  | JSONL",
    "r(1,2,3,4)                                      | PLUME",
    "=====                                           | AWDIT",
    "w 1 2                                           | AWDIT"
  })
  void detectsByFirstNonBlankLine(String firstLine, HistoryFormat format) throws Exception {
    Path file = dir.resolve("history");
    Files.writeString(file, "\n  \n" + firstLine + "\nmore\n");
    assertThat(HistoryFiles.detect(file)).isEqualTo(format);
  }

  @Test
  void namesTheLineItCannotTell() throws Exception {
    Path file = dir.resolve("h.txt");
    Files.writeString(file, "\nhello world\n");
    assertThatThrownBy(() -> HistoryFiles.detect(file))
        .isInstanceOf(HistoryFormatException.class)
        .hasMessage(file + ":2: cannot tell the history format from 'hello world'; "
            + SNIFF_EXPECTED);
  }

  @Test
  void refusesEmptyFilesDirectoriesAndMissingPaths() throws Exception {
    Path empty = dir.resolve("empty.txt");
    Files.writeString(empty, "\n\n");
    Path emptyDir = Files.createDirectory(dir.resolve("d"));
    Path missing = dir.resolve("missing.jsonl");
    assertThatThrownBy(() -> HistoryFiles.detect(empty))
        .hasMessage(empty + ": no operation in the first 2 bytes to tell the format from; "
            + "expected a history; or name its format with --format");
    assertThatThrownBy(() -> HistoryFiles.detect(emptyDir))
        .hasMessage(emptyDir + ": directory holds neither history.bincode (dbcop) nor *.log files "
            + "(Cobra); expected a history directory");
    assertThatThrownBy(() -> HistoryFiles.read(missing, null, null))
        .hasMessage(missing + ": no such file or directory; expected a history file");
    assertThatThrownBy(() -> HistoryFiles.read(emptyDir, HistoryFormat.PLUME, null))
        .hasMessage(emptyDir + ": is a directory; expected a plume file");
    assertThatThrownBy(() -> HistoryFiles.read(empty, HistoryFormat.COBRA, null))
        .hasMessage(empty + ": is not a directory; expected a directory of Cobra *.log files");
    assertThatThrownBy(() -> HistoryFiles.read(emptyDir, HistoryFormat.DBCOP, null))
        .hasMessage(emptyDir + ": no history.bincode in the directory; "
            + "expected a dbcop history directory");
  }

  @Test
  void refusesUtf16TextNamingTheEncoding() throws Exception {
    Path file = dir.resolve("utf16.txt");
    Files.write(file, "r(1,1,1,1)\n".getBytes(StandardCharsets.UTF_16));
    for (HistoryFormat f : Arrays.asList(null, HistoryFormat.PLUME, HistoryFormat.EDN)) {
      assertThatThrownBy(() -> HistoryFiles.read(file, f, null))
          .isInstanceOf(HistoryFormatException.class)
          .hasMessage(file + ": byte 0: starts with a UTF-16 byte-order mark; expected UTF-8 text (convert it,"
              + " e.g. iconv -f UTF-16 -t UTF-8 FILE > FILE.utf8)");
    }
  }

  @Test
  void exceptionExposesFileLineAndOffset() throws Exception {
    Path file = dir.resolve("bad.txt");
    Files.writeString(file, "r(1,1,1,1)\nq\n");
    HistoryFormatException e = catchThrowableOfType(
        HistoryFormatException.class, () -> HistoryFiles.read(file, null, null));
    assertThat(new Object[] {e.file(), e.line(), e.byteOffset(), e.problem()})
        .containsExactly(file, 2L, -1L, "malformed operation 'q'");
  }
}
