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
 * <p>Open addressing with linear probing over a power-of-two table of entry numbers; each entry's
 * bytes are kept in one growing byte array. The names must be ASCII (each byte one character),
 * which the callers check. Not thread-safe.
 */
final class ByteNames {
  private final ToIntFunction<String> idOf;
  /** Entry number + 1 per slot, 0 for an empty slot. */
  private int[] slots = new int[1024];
  /** Per entry: offset of its bytes in {@link #bytes}, their length, its hash and its id. */
  private int[] offsets = new int[256];
  private int[] lengths = new int[256];
  private int[] hashes = new int[256];
  private int[] ids = new int[256];
  private byte[] bytes = new byte[4096];
  private int entries;
  private int used;

  /** @param idOf gives a new name its id (and is asked nothing twice for one name) */
  ByteNames(ToIntFunction<String> idOf) {
    this.idOf = idOf;
  }

  /** @return the id of the ASCII name {@code b[from..to)} */
  int id(byte[] b, int from, int to) {
    int hash = hash(b, from, to);
    int mask = slots.length - 1;
    int n = to - from;
    for (int s = hash & mask; ; s = (s + 1) & mask) {
      int e = slots[s] - 1;
      if (e < 0) {
        return add(b, from, n, hash, s);
      }
      if (hashes[e] == hash && lengths[e] == n
          && Arrays.equals(bytes, offsets[e], offsets[e] + n, b, from, to)) {
        return ids[e];
      }
    }
  }

  private int add(byte[] b, int from, int n, int hash, int slot) {
    int id = idOf.applyAsInt(new String(b, from, n, StandardCharsets.ISO_8859_1));
    if (entries == ids.length) {
      offsets = Arrays.copyOf(offsets, 2 * entries);
      lengths = Arrays.copyOf(lengths, 2 * entries);
      hashes = Arrays.copyOf(hashes, 2 * entries);
      ids = Arrays.copyOf(ids, 2 * entries);
    }
    if (used + n > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(2 * bytes.length, used + n));
    }
    System.arraycopy(b, from, bytes, used, n);
    offsets[entries] = used;
    lengths[entries] = n;
    hashes[entries] = hash;
    ids[entries] = id;
    used += n;
    slots[slot] = ++entries;
    if (2 * entries > slots.length) {
      rehash();
    }
    return id;
  }

  private void rehash() {
    slots = new int[2 * slots.length];
    int mask = slots.length - 1;
    for (int e = 0; e < entries; e++) {
      int s = hashes[e] & mask;
      while (slots[s] != 0) {
        s = (s + 1) & mask;
      }
      slots[s] = e + 1;
    }
  }

  /** A polynomial hash of the bytes, its bits mixed by fastutil's {@link HashCommon#mix}. */
  private static int hash(byte[] b, int from, int to) {
    int h = 0;
    for (int i = from; i < to; i++) {
      h = 31 * h + b[i];
    }
    return HashCommon.mix(h);
  }
}
