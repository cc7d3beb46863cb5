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
 * The FIX 4.4 adapter: a QuickFIX/J acceptor whose sessions are sessions of the gateway's session core, like the
 * WebSocket servers' ones. QuickFIX/J owns the FIX session layer (logon exchange, heartbeats, sequence numbers,
 * resend requests and gap fills, its message store); this package only checks logons against the gateway's
 * credentials and maps FIX messages to and from the core's commands and events (docs/fix.md).
 */
package io.warpbus.gateway.fix;
