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
 * The one-command demo, {@code ./warpbus demo}: {@link io.warpbus.demo.DemoMain} starts a small exchange on the bus
 * as separate processes (the engine service of {@code io.warpbus.demo.service}, the load client of
 * {@code io.warpbus.demo.client}, the market-data subscriber of {@code io.warpbus.demo.subscriber}, and the gateway),
 * reads their {@code STATS} lines and judges the run. The rest of this package is what those processes share: the
 * child-process life cycle ({@link io.warpbus.demo.DemoChild}, {@link io.warpbus.demo.ParentWatch}), the bus and
 * instruments every process derives from the same options ({@link io.warpbus.demo.DemoProcess},
 * {@link io.warpbus.demo.Options}), the stats line format ({@link io.warpbus.demo.Stats}) and a process's own
 * counters file ({@link io.warpbus.demo.AppCounters}).
 */
package io.warpbus.demo;
