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

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The gateway's users, by index (as commands carry them) and by name. Immutable once built, apart from each user's
 * blocked flag.
 */
public final class UserDirectory
{
    private final List<User> users;
    private final Map<String, User> byName = new HashMap<>();

    /**
     * A directory of users whose indexes are their positions in the list.
     *
     * @param users the users.
     * @throws IllegalArgumentException if an index does not match its position or a name repeats.
     */
    public UserDirectory(final List<User> users)
    {
        this.users = List.copyOf(users);
        for (int i = 0; i < this.users.size(); i++)
        {
            final User user = this.users.get(i);
            if (user.index() != i)
            {
                throw new IllegalArgumentException("user " + user.name() + " has index " + user.index() + " at " + i);
            }
            if (null != byName.put(user.name(), user))
            {
                throw new IllegalArgumentException("user " + user.name() + " appears twice");
            }
        }
    }

    /**
     * A user by index.
     *
     * @param index its index.
     * @return the user, or null when out of range.
     */
    public User get(final int index)
    {
        return index >= 0 && index < users.size() ? users.get(index) : null;
    }

    /**
     * A user by name.
     *
     * @param name the user name.
     * @return the user, or null.
     */
    public User get(final String name)
    {
        return byName.get(name);
    }

    /**
     * Every user.
     *
     * @return an unmodifiable list.
     */
    public List<User> all()
    {
        return Collections.unmodifiableList(users);
    }
}
