package io.isowatch.stream.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.schemas.EventKind;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.stream.config.MonitorConfig.Limits;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;

/**
 * The key-size limit of {@link InputCheck}, which encodes a key only when its length could exceed the
 * limit, against its literal definition: the key's UTF-8 encoding longer than {@code maxKeyBytes}.
 * Strings of any chars (surrogates, lone ones included), limits around their encoded length.
 */
class InputCheckPropertyTest {
  @Property(tries = 3000)
  void aKeyIsOversizedExactlyWhenItsUtf8IsLongerThanTheLimit(@ForAll @StringLength(min = 1, max = 12) String key,
      @ForAll @IntRange(min = 1, max = 40) int maxKeyBytes) {
    Limits limits = Limits.defaults().with("max-key-bytes", maxKeyBytes);
    int bytes = key.getBytes(StandardCharsets.UTF_8).length;
    boolean oversized = bytes > maxKeyBytes;
    String k = key.indexOf('\0') >= 0 ? key.replace('\0', 'x') : key;

    Transaction t = new Transaction("h", "s", "t", 0L, TxnStatus.COMMITTED, List.of(new Operation(OpKind.WRITE, k, 1L)),
        Instant.EPOCH, Instant.EPOCH, null);
    Rejection onTxn = InputCheck.transaction("h/s", t, limits);
    TxnEvent e = new TxnEvent("h", "s", "t", 0L, 1, EventKind.WRITE, k, 1L, Instant.EPOCH, null);
    Rejection onEvent = InputCheck.event("h/s", e, limits);
    Transaction named = new Transaction("h", "s", k, 0L, TxnStatus.COMMITTED, List.of(), Instant.EPOCH, Instant.EPOCH, null);
    Rejection onId = InputCheck.transaction("h/s", named, limits);

    assertThat(onTxn == null ? null : onTxn.reason()).isEqualTo(oversized
        ? "oversized-field: WRITE of t at position 0: key is " + bytes + " bytes, the limit is " + maxKeyBytes : null);
    assertThat(onEvent == null ? null : onEvent.reason()).isEqualTo(oversized
        ? "oversized-field: WRITE of t at opIndex 1: key is " + bytes + " bytes, the limit is " + maxKeyBytes : null);
    assertThat(onId == null ? null : onId.reason()).isEqualTo(oversized
        ? "oversized-field: txnId is " + bytes + " bytes, the limit is " + maxKeyBytes : null);
  }
}
