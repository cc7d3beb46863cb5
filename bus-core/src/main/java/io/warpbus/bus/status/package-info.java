/*
 * Copyright 2026 the WarpBus authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
/**
 * The bus's counters and error log in shared memory, which the {@code stat} tool reads from another process, in
 * the manner of Aeron's CnC file and {@code AeronStat}.
 * <p>
 * One process, the <em>owner</em>, creates {@code <dir>/counters.dat} with {@link io.warpbus.bus.status.CountersFile}
 * and allocates counters in it; any other process maps the file read-only and reads the counters, the distinct
 * error log and the owner's heartbeat. A bus wires it up like this:
 * <pre>{@code
 * final CountersFile countersFile = CountersFile.create(dir);                  // <dir>/counters.dat
 * final SystemCounters systemCounters = new SystemCounters(countersFile.countersManager());
 * final ErrorHandler errorHandler = new RecordingErrorHandler(
 *     countersFile.errorLog(), systemCounters.get(SystemCounterDescriptor.ERRORS));
 * final DutyCycleTracker dutyCycle = DutyCycleTracker.of(systemCounters, TimeUnit.MILLISECONDS.toNanos(1));
 * final AtomicCounter pubPos = StreamCounters.publisherPosition(
 *     countersFile.countersManager(), registrationId, streamId, sessionId, "10.0.0.5:40456");
 *
 * // on the duty-cycle thread:
 * dutyCycle.measureAndUpdate(System.nanoTime());
 * countersFile.heartbeat(System.currentTimeMillis());                            // e.g. every 100 ms
 *
 * // at shutdown, after the last use of any counter:
 * countersFile.close();                                                          // or closeAndDelete()
 * }</pre>
 * Counters are identified by a type id from {@link io.warpbus.bus.status.CounterTypeIds} plus key bytes, never by
 * their counter id, which depends on allocation order. {@link io.warpbus.bus.status.SystemCounterDescriptor} ids
 * are stable across releases and never reused.
 * <p>
 * From a shell: {@code ./warpbus stat --dir DIR} (the tool is {@code io.warpbus.tools.StatTool}).
 */
package io.warpbus.bus.status;
