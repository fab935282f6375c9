/**
 * Workloads: what each session of a simulation will try to do, generated from a seed before anything
 * runs: the rw-register workload ({@link io.isowatch.enginesim.workload.RegisterWorkload}, values
 * unique per key, the data-independence assumption that makes write-read dependencies observable,
 * Biswas &amp; Enea, OOPSLA 2019, §2), the list-append workload ({@link
 * io.isowatch.enginesim.workload.ListAppendWorkload}, Elle-style), named textbook scenarios ({@link
 * io.isowatch.enginesim.workload.Scenarios}); the bank-transfer scenario, whose programs depend on
 * what they read, is {@link io.isowatch.enginesim.run.BankTransfer}.
 */
package io.isowatch.enginesim.workload;
