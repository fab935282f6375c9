/**
 * Workloads: what each session of a simulation will try to do, generated from a seed before anything
 * runs. So far the rw-register workload ({@link io.isowatch.enginesim.workload.RegisterWorkload}):
 * reads and writes of registers with values unique per key, the data-independence assumption that
 * makes write-read dependencies observable (Biswas &amp; Enea, OOPSLA 2019, §2).
 */
package io.isowatch.enginesim.workload;
