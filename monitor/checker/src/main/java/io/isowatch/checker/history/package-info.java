/**
 * The history model: sessions of program-ordered transactions on primitive arrays, with interned
 * keys and sessions and an index from written values to their writes.
 */
package io.isowatch.checker.history;
