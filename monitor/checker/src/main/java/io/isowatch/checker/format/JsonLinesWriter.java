package io.isowatch.checker.format;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;

/**
 * Writes a history as isowatch JSON lines ({@code docs/history-format.md}), one transaction per
 * line in the order they were appended; the inverse of {@link JsonLinesReader}. Every history
 * can be written: register and list operations, unknown results, any status.
 */
final class JsonLinesWriter {
  private static final JsonFactory FACTORY = new JsonFactory();

  private JsonLinesWriter() {}

  /**
   * @param h the history; every transaction closed
   * @param out where the UTF-8 text goes; not closed
   * @throws IOException if writing fails
   */
  static void write(History h, OutputStream out) throws IOException {
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
      g.setRootValueSeparator(new SerializedString("\n"));
      for (int t = 0; t < h.txnCount(); t++) {
        g.writeStartObject();
        g.writeStringField("session", h.sessionName(h.sessionOf(t)));
        g.writeNumberField("txn", h.label(t));
        g.writeStringField("status", h.status(t).name().toLowerCase(Locale.ROOT));
        g.writeArrayFieldStart("ops");
        for (int op = h.opStart(t); op < h.opEnd(t); op++) {
          operation(h, op, g);
        }
        g.writeEndArray();
        g.writeEndObject();
      }
      if (h.txnCount() > 0) {
        g.writeRaw('\n');
      }
    }
  }

  private static void operation(History h, int op, JsonGenerator g) throws IOException {
    byte kind = h.opKind(op);
    g.writeStartObject();
    g.writeStringField("f", kind == OpKind.WRITE ? "w" : kind == OpKind.APPEND ? "append" : "r");
    g.writeStringField("key", h.keyName(h.opKey(op)));
    if (kind == OpKind.READ_LIST) {
      if (h.listKnown(op)) {
        g.writeArrayFieldStart("value");
        for (int i = 0; i < h.listLength(op); i++) {
          g.writeNumber(h.listElement(op, i));
        }
        g.writeEndArray();
      } else {
        g.writeBooleanField("list", true);
      }
    } else {
      long v = h.opValue(op);
      if (v == History.NIL) {
        g.writeNullField("value");
      } else if (v != History.UNKNOWN_VALUE) {
        g.writeNumberField("value", v);
      }
    }
    g.writeEndObject();
  }
}
