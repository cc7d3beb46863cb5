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
package io.warpbus.gateway.session;

import java.util.Arrays;
import java.util.Set;

/**
 * A user as the session core sees it: the accounts it may trade, its roles, its order rate limit, and whether an
 * operator has blocked it. Credentials live elsewhere ({@code io.warpbus.gateway.security}); nothing here is
 * secret.
 */
public final class User
{
    /** The role that may place, cancel and replace orders; without it a user sees market data only. */
    public static final String TRADER = "trader";

    private final int index;
    private final String name;
    private final long[] accounts;
    private final Set<String> roles;
    private final Set<String> marketData;
    private final long ordersPerSecond;
    private final long orderBurst;
    private final boolean trader;
    private volatile boolean blocked;

    /**
     * A user.
     *
     * @param index           position in the {@link UserDirectory}.
     * @param name            the user name.
     * @param accounts        the accounts it may trade.
     * @param roles           its roles, such as {@code trader} and {@code admin}.
     * @param marketData      the symbols whose market data it may see; {@code *} for all.
     * @param ordersPerSecond its order rate limit across all its sessions.
     * @param orderBurst      the burst that limit allows.
     */
    public User(final int index, final String name, final long[] accounts, final Set<String> roles,
        final Set<String> marketData, final long ordersPerSecond, final long orderBurst)
    {
        this.index = index;
        this.name = name;
        this.accounts = accounts.clone();
        Arrays.sort(this.accounts);
        this.roles = Set.copyOf(roles);
        this.marketData = Set.copyOf(marketData);
        this.ordersPerSecond = ordersPerSecond;
        this.orderBurst = orderBurst;
        this.trader = this.roles.contains(TRADER);
    }

    /**
     * Position in the directory.
     *
     * @return the index.
     */
    public int index()
    {
        return index;
    }

    /**
     * The user name.
     *
     * @return the name.
     */
    public String name()
    {
        return name;
    }

    /**
     * May the user trade this account? Allocation free.
     *
     * @param account an account id.
     * @return true if entitled.
     */
    public boolean isEntitled(final long account)
    {
        return Arrays.binarySearch(accounts, account) >= 0;
    }

    /**
     * May the user place, cancel and replace orders at all? Only with the {@link #TRADER} role. Allocation free.
     *
     * @return true if it has the role.
     */
    public boolean mayTrade()
    {
        return trader;
    }

    /**
     * May the user see an instrument's market data (and list it)?
     *
     * @param symbol the instrument's symbol.
     * @return true if entitled.
     */
    public boolean mayView(final String symbol)
    {
        return marketData.contains("*") || marketData.contains(symbol);
    }

    /**
     * The symbols whose market data the user may see.
     *
     * @return an unmodifiable set, {@code *} for all.
     */
    public Set<String> marketData()
    {
        return marketData;
    }

    /**
     * The accounts, sorted.
     *
     * @return a copy.
     */
    public long[] accounts()
    {
        return accounts.clone();
    }

    /**
     * The roles.
     *
     * @return an unmodifiable set.
     */
    public Set<String> roles()
    {
        return roles;
    }

    /**
     * Order rate limit across the user's sessions.
     *
     * @return orders per second.
     */
    public long ordersPerSecond()
    {
        return ordersPerSecond;
    }

    /**
     * Order burst across the user's sessions.
     *
     * @return orders.
     */
    public long orderBurst()
    {
        return orderBurst;
    }

    /**
     * Blocked by an operator: logons are refused and its sessions ended.
     *
     * @return true if blocked.
     */
    public boolean isBlocked()
    {
        return blocked;
    }

    /**
     * Block or unblock.
     *
     * @param blocked the new state.
     */
    public void blocked(final boolean blocked)
    {
        this.blocked = blocked;
    }

    @Override
    public String toString()
    {
        return name;
    }
}
