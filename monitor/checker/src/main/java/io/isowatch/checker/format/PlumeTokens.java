package io.isowatch.checker.format;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * The lines of a Plume file split into fields on a second thread, in blocks of {@value #BLOCK_LINES}
 * lines, while {@link PlumeReader} adds the blocks before them to the history: finding the lines and
 * their numbers is about half of the reader's time, adding them (sessions, transactions, the
 * history's columns, the write index) the other half, and the two halves overlap on two cores. The
 * load of 10^6 transactions (150 MB): 881–1,173 ms → 680–858 ms (docs/PERFORMANCE.md, "issue 20,
 * fifth part").
 *
 * <p>This thread only tokenizes ({@link PlumeReader#tokenize}, a function of a line's bytes); every
 * line not of the canonical form is passed on as its text, and everything that can be wrong with
 * a line is decided by {@link PlumeReader} in the file's order, so the history and the errors
 * (their lines and words) are those of the sequential reader. What the line reader throws (a line
 * too long, a failed read) ends the last block and is thrown by {@link Block#rethrow} after that
 * block's lines, where the sequential reader would throw it.
 *
 * <p>Memory: at most {@value #QUEUED} blocks wait, about 540 KB each.
 */
final class PlumeTokens implements AutoCloseable {
  /**
   * Files from this size on are read with a tokenizing thread. Below it the thread costs more than
   * it saves: at 10^4 transactions (1.4 MB) the load took 44–53 ms with it against 34–41 without.
   */
  static final long FROM_BYTES = 4L << 20;
  /** Lines per block. */
  static final int BLOCK_LINES = 1 << 14;
  /** Blocks that may wait for the reader. */
  static final int QUEUED = 4;
  /** {@link Block#kind} of a line passed on as text. */
  static final byte TEXT = 0;

  /** Consecutive lines of the file: tokenized ones by field, the others as text. */
  static final class Block {
    /** Per line: {@code 'r'} or {@code 'w'} for a tokenized line, {@link #TEXT} for the others. */
    final byte[] kind;
    final long[] key;
    final long[] value;
    final long[] session;
    final long[] txn;
    /** The lines of kind {@link #TEXT}, in order, as {@link LineReader#text()} gives them. */
    final List<String> texts = new ArrayList<>();
    int size;
    /** The 1-based number of the block's first line. */
    long firstLine;
    /** Bytes of the file consumed up to the end of the block's last line. */
    long bytesConsumed;
    /** Whether no block follows (the end of the file, or {@link #failure}). */
    boolean last;
    /** What the line reader (or the tokenizing thread) threw after the block's lines, or null. */
    Throwable failure;

    /** @param capacity lines it holds at most */
    Block(int capacity) {
      kind = new byte[capacity];
      key = new long[capacity];
      value = new long[capacity];
      session = new long[capacity];
      txn = new long[capacity];
    }

    /**
     * Throws what was thrown after this block's lines, if anything.
     *
     * @throws HistoryFormatException a line too long
     * @throws IOException a failed read
     */
    void rethrow() throws HistoryFormatException, IOException {
      if (failure instanceof HistoryFormatException f) {
        throw f;
      }
      if (failure instanceof IOException io) {
        throw io;
      }
      if (failure instanceof RuntimeException r) {
        throw r;
      }
      if (failure instanceof Error e) {
        throw e;
      }
    }
  }

  private final LineReader lines;
  private final int blockLines;
  private final BlockingQueue<Block> full = new ArrayBlockingQueue<>(QUEUED);
  private final BlockingQueue<Block> free = new ArrayBlockingQueue<>(QUEUED + 2);
  private final Thread thread;
  /** The last block when the tokenizing thread fails unexpectedly: empty, made beforehand. */
  private final Block broken = new Block(0);

  private PlumeTokens(LineReader lines, int blockLines) {
    this.lines = lines;
    this.blockLines = blockLines;
    this.thread = new Thread(this::run, "isowatch-plume-tokens");
    thread.setDaemon(true);
  }

  /**
   * Starts tokenizing on a new thread; {@link #close} stops it.
   *
   * @param lines the file's lines, read by that thread only from now on
   * @param blockLines lines per block ({@link #BLOCK_LINES}; fewer in tests, for many blocks from a
   *     small file)
   * @return the blocks to {@link #take}
   */
  static PlumeTokens start(LineReader lines, int blockLines) {
    PlumeTokens tokens = new PlumeTokens(lines, blockLines);
    tokens.thread.start();
    return tokens;
  }

  private void run() {
    long[] f = new long[4];
    try {
      Block block = fresh(1);
      while (true) {
        boolean more;
        try {
          more = lines.advance();
        } catch (HistoryFormatException | IOException e) {
          block.failure = e;
          more = false;
        }
        if (!more) {
          block.last = true;
          block.bytesConsumed = lines.bytesConsumed();
          full.put(block);
          return;
        }
        int j = block.size++;
        byte[] b = lines.bytes();
        if (PlumeReader.tokenize(b, lines.start(), lines.end(), f)) {
          block.kind[j] = b[lines.start()];
          block.key[j] = f[0];
          block.value[j] = f[1];
          block.session[j] = f[2];
          block.txn[j] = f[3];
        } else {
          block.kind[j] = TEXT;
          block.texts.add(lines.text());
        }
        if (block.size == blockLines) {
          block.bytesConsumed = lines.bytesConsumed();
          full.put(block);
          block = fresh(lines.lineNumber() + 1);
        }
      }
    } catch (InterruptedException e) {
      // close(): the reader stopped early (it threw); nothing waits for more blocks
    } catch (RuntimeException | Error e) {
      // anything else ends the blocks too, so that the reader does not wait for ever: it throws it
      // after the blocks before (the lines of the block under way are lost, and so is the read)
      broken.failure = e;
      broken.last = true;
      try {
        full.put(broken);
      } catch (InterruptedException stopped) {
        // close(): nothing waits
      }
    }
  }

  private Block fresh(long firstLine) {
    Block block = free.poll();
    if (block == null) {
      block = new Block(blockLines);
    }
    block.size = 0;
    block.texts.clear();
    block.firstLine = firstLine;
    return block;
  }

  /**
   * @return the next block, in the file's order; the last one has {@link Block#last} set
   * @throws InterruptedIOException if the calling thread is interrupted while waiting
   */
  Block take() throws InterruptedIOException {
    try {
      return full.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while reading");
    }
  }

  /** Gives a block back for reuse once its lines are added. */
  void recycle(Block block) {
    free.offer(block);
  }

  /** Stops the tokenizing thread, if it still runs, and waits for it. */
  @Override
  public void close() {
    thread.interrupt();
    boolean interrupted = false;
    while (true) {
      try {
        thread.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
