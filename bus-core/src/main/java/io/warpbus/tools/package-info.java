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
 * Command-line tools behind the {@code warpbus} launcher: {@code rping} ({@link io.warpbus.tools.Rping}, a client
 * and server compatible with rdma-core's librdmacm rping example), {@code pub} and {@code sub} (publish and
 * receive on a bus channel, with checksums to compare), {@code record} (the standalone journal recorder and replay
 * service), {@code journal} (read a journal directory) and {@code stat} (a bus's counters and error log, read from
 * another process). Tools are thin: they parse options, drive the public API and print results; nothing here is
 * used by the library itself.
 */
package io.warpbus.tools;
