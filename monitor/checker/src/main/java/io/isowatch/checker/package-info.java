/** The checker facade: one {@link io.isowatch.checker.Checker} per level. */
package io.isowatch.checker;
