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
 * Benchmarks run side by side with their peers in one run: each suite alternates WarpBus and the peer within the
 * run, repeats for several rounds, and reports the median of the rounds in a table (with the ratio to the peer)
 * and as JSON under {@code target/bench/}. Medians and ratios, never one absolute time: the build machines are
 * shared and noisy.
 */
package io.warpbus.bench;
