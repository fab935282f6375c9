/**
 * The monitor's settings ({@link io.isowatch.stream.config.MonitorConfig}: topics, levels, window,
 * limits, sources), read by every stage of the topology. It sits below the stages ({@code
 * stream.assembly}, {@code stream.check}) and the topology that wires them, and depends on none of
 * them.
 */
package io.isowatch.stream.config;
