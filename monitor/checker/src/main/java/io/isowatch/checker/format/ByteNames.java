package io.isowatch.checker.format;

import it.unimi.dsi.fastutil.HashCommon;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.ToIntFunction;

/**
 * Interns ASCII names given as byte slices: maps the bytes of a name to the id a {@link
 * io.isowatch.checker.history.History} gave it ({@code History.key} or {@code History.session}),
 * making the name's {@code String} once, the first time its bytes are seen. The byte paths of the
 * readers look a key up per operation through this table, with no object per lookup.
 *
 * <p>Open addressing with linear probing over a power-of-two table of two longs per slot: the
 * name's first eight bytes packed into a long, then its length and its id. A name of up to eight
 * bytes (most keys) is found within its slot, one cache line; a longer one compares its other bytes
 * with a copy kept per id. The names must be ASCII (each byte one character), which the callers
 * check. Not thread-safe.
 */
final class ByteNames {
  private static final int PACKED = 8;

  private final ToIntFunction<String> idOf;
  /** Per slot: the packed first bytes, then {@code length << 32 | (id + 1)}; 0 for an empty slot. */
  private long[] table = new long[2 * 1024];
  private int entries;
  /** Per id: where its bytes past the first eight start in {@link #rest} (names over eight bytes). */
  private int[] restOffset = new int[256];
  private byte[] rest = new byte[4096];
  private int restUsed;

  /** @param idOf gives a new name its id (and is asked nothing twice for one name) */
  ByteNames(ToIntFunction<String> idOf) {
    this.idOf = idOf;
  }

  /** @return the id of the ASCII name {@code b[from..to)} */
  int id(byte[] b, int from, int to) {
    int n = to - from;
    long packed = pack(b, from, Math.min(to, from + PACKED));
    int mask = table.length / 2 - 1;
    for (int s = hash(packed, b, from, to) & mask; ; s = (s + 1) & mask) {
      long meta = table[2 * s + 1];
      if (meta == 0) {
        return add(b, from, n, packed, s);
      }
      if (table[2 * s] == packed && (int) (meta >>> 32) == n) {
        int id = (int) meta - 1;
        if (n <= PACKED || Arrays.equals(rest, restOffset[id], restOffset[id] + n - PACKED,
            b, from + PACKED, to)) {
          return id;
        }
      }
    }
  }

  private int add(byte[] b, int from, int n, long packed, int slot) {
    int id = idOf.applyAsInt(new String(b, from, n, StandardCharsets.ISO_8859_1));
    table[2 * slot] = packed;
    table[2 * slot + 1] = (long) n << 32 | (id + 1);
    if (n > PACKED) {
      if (id >= restOffset.length) {
        restOffset = Arrays.copyOf(restOffset, Math.max(2 * restOffset.length, id + 1));
      }
      int more = n - PACKED;
      if (restUsed + more > rest.length) {
        rest = Arrays.copyOf(rest, Math.max(2 * rest.length, restUsed + more));
      }
      System.arraycopy(b, from + PACKED, rest, restUsed, more);
      restOffset[id] = restUsed;
      restUsed += more;
    }
    if (2 * ++entries > table.length / 2) {
      rehash();
    }
    return id;
  }

  private void rehash() {
    long[] old = table;
    table = new long[2 * old.length];
    int mask = table.length / 2 - 1;
    for (int s = 0; s < old.length / 2; s++) {
      long meta = old[2 * s + 1];
      if (meta != 0) {
        int id = (int) meta - 1;
        int t = slotHash(old[2 * s], (int) (meta >>> 32), id) & mask;
        while (table[2 * t + 1] != 0) {
          t = (t + 1) & mask;
        }
        table[2 * t] = old[2 * s];
        table[2 * t + 1] = meta;
      }
    }
  }

  /** @return the bytes {@code b[from..to)}, at most eight, little-endian in a long */
  private static long pack(byte[] b, int from, int to) {
    long v = 0;
    for (int i = to - 1; i >= from; i--) {
      v = v << 8 | (b[i] & 0xff);
    }
    return v;
  }

  private static int hash(long packed, byte[] b, int from, int to) {
    long h = packed ^ (to - from);
    for (int i = from + PACKED; i < to; i++) {
      h = 31 * h + b[i];
    }
    return (int) HashCommon.mix(h);
  }

  /** The hash of a name already in the table, from its slot and its bytes past the first eight. */
  private int slotHash(long packed, int n, int id) {
    int from = n <= PACKED ? 0 : restOffset[id] - PACKED;
    return hash(packed, rest, from, from + n);
  }
}
