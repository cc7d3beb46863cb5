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
package io.warpbus.gateway.admin;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.warpbus.gateway.session.InstrumentInfo;
import io.warpbus.gateway.session.InstrumentRegistry;
import io.warpbus.gateway.session.SessionCore;
import io.warpbus.gateway.session.SessionInfo;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * The operators' REST API (admin role): list sessions, end one, block or unblock a user, halt or resume an
 * instrument. Every call that touches sessions runs on the session core's thread through {@link SessionCore#call}
 * and waits at most {@value #TIMEOUT_MS} ms for it; the web thread never touches session state.
 */
@RestController
@RequestMapping("/api/admin")
class AdminController
{
    static final long TIMEOUT_MS = 5_000;

    private final SessionCore core;
    private final InstrumentRegistry instruments;

    AdminController(final SessionCore core, final InstrumentRegistry instruments)
    {
        this.core = core;
        this.instruments = instruments;
    }

    @GetMapping("/sessions")
    List<SessionInfo> sessions()
    {
        return await(core.sessions());
    }

    @DeleteMapping("/sessions/{token}")
    ResponseEntity<Map<String, Object>> endSession(@PathVariable("token") final String token,
        @RequestParam(name = "reason", defaultValue = "ended by an operator") final String reason)
    {
        final boolean ended = await(core.endSession(token, printable(reason)));
        if (!ended)
        {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, "no session " + printable(token));
        }
        return ResponseEntity.ok(Map.of("session", token, "ended", true));
    }

    @PostMapping("/users/{user}/block")
    Map<String, Object> block(@PathVariable("user") final String user)
    {
        return blocked(user, true);
    }

    @DeleteMapping("/users/{user}/block")
    Map<String, Object> unblock(@PathVariable("user") final String user)
    {
        return blocked(user, false);
    }

    @GetMapping("/instruments")
    Collection<InstrumentInfo> instruments()
    {
        return instruments.all();
    }

    @PostMapping("/instruments/{symbol}/halt")
    InstrumentInfo halt(@PathVariable("symbol") final String symbol)
    {
        return trading(symbol, false);
    }

    @DeleteMapping("/instruments/{symbol}/halt")
    InstrumentInfo resume(@PathVariable("symbol") final String symbol)
    {
        return trading(symbol, true);
    }

    private Map<String, Object> blocked(final String user, final boolean blocked)
    {
        final int ended = await(core.blockUser(user, blocked));
        if (ended < 0)
        {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, "no user " + printable(user));
        }
        return Map.of("user", user, "blocked", blocked, "sessionsEnded", ended);
    }

    private InstrumentInfo trading(final String symbol, final boolean trading)
    {
        final InstrumentInfo info = await(core.trading(symbol, trading));
        if (null == info)
        {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, "no instrument " + printable(symbol));
        }
        return info;
    }

    private static <T> T await(final CompletableFuture<T> result)
    {
        try
        {
            return result.get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        }
        catch (final TimeoutException ex)
        {
            throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "the session core did not answer " +
                "within " + TIMEOUT_MS + " ms");
        }
        catch (final ExecutionException ex)
        {
            throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, ex.getCause().getMessage());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "interrupted");
        }
    }

    private static String printable(final String text)
    {
        return text.replaceAll("[^\\x20-\\x7E]", "?");
    }
}
