/**
 * Whole-process comparison of {@code isowatch check} with AWDIT (issue 20): the same generated
 * Plume files, each tool run as a user runs it, interleaved, with wall time, peak RSS, each tool's
 * own load/check split and the load averages around every run.
 */
package io.isowatch.bench.process;
