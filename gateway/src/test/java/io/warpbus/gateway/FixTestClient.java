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
package io.warpbus.gateway;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import io.warpbus.testing.Await;
import quickfix.Application;
import quickfix.ConfigError;
import quickfix.DefaultMessageFactory;
import quickfix.FieldNotFound;
import quickfix.FileStoreFactory;
import quickfix.Message;
import quickfix.SLF4JLogFactory;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.SessionSettings;
import quickfix.SocketInitiator;
import quickfix.field.MsgType;
import quickfix.field.Password;
import quickfix.field.Username;

/**
 * A real QuickFIX/J initiator for the FIX tests: logs on over a loopback socket with a user name and password, keeps
 * every message it receives (session level included) in order, and waits for them with a deadline. Its store is a
 * file store in a directory of the test's, so that a test can stop and start it like a client process. Public for the
 * demo's test, which logs on to the demo's gateway with it.
 */
public final class FixTestClient implements Application, AutoCloseable
{
    static final long TIMEOUT_MS = 20_000;

    private final SessionID sessionId;
    private final SocketInitiator initiator;
    private final List<Message> received = new ArrayList<>();
    private volatile String userName;
    private volatile String password;

    public FixTestClient(final int port, final String senderCompId, final String targetCompId,
        final Path storeDirectory, final String userName, final String password)
    {
        this.userName = userName;
        this.password = password;
        sessionId = new SessionID("FIX.4.4", senderCompId, targetCompId);
        final SessionSettings settings = new SessionSettings();
        settings.setString("ConnectionType", "initiator");
        settings.setString("NonStopSession", "Y");
        settings.setString("FileStorePath", storeDirectory.resolve(senderCompId).toString());
        settings.setString("UseDataDictionary", "Y");
        settings.setString("DataDictionary", "FIX44.xml");
        settings.setString("ValidateUserDefinedFields", "N");
        settings.setString("ReconnectInterval", "1");
        settings.setString("HeartBtInt", "30");
        settings.setString("SocketConnectHost", "127.0.0.1");
        settings.setString("SocketConnectPort", Integer.toString(port));
        try
        {
            settings.set(sessionId, new quickfix.Dictionary());
            initiator = new SocketInitiator(this, new FileStoreFactory(settings), settings,
                new SLF4JLogFactory(settings), new DefaultMessageFactory());
        }
        catch (final ConfigError ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    public FixTestClient start()
    {
        try
        {
            initiator.start();
        }
        catch (final ConfigError ex)
        {
            throw new IllegalStateException(ex);
        }
        return this;
    }

    void credentials(final String userName, final String password)
    {
        this.userName = userName;
        this.password = password;
    }

    Session session()
    {
        return Session.lookupSession(sessionId);
    }

    boolean isLoggedOn()
    {
        final Session session = session();
        return null != session && session.isLoggedOn();
    }

    public FixTestClient awaitLogon()
    {
        Await.until(() -> "a FIX logon of " + sessionId + "; received " + received(), TIMEOUT_MS, () ->
        {
        }, this::isLoggedOn);
        return this;
    }

    public void send(final Message message)
    {
        if (!session().send(message))
        {
            throw new IllegalStateException("QuickFIX/J did not send " + message + ": not logged on");
        }
    }

    /**
     * Wait for a message from the given index on.
     */
    Message await(final int from, final Predicate<Message> match, final String what)
    {
        final Message[] found = new Message[1];
        Await.until(() -> what + "; received " + received(), TIMEOUT_MS, () ->
        {
        }, () ->
        {
            final List<Message> messages = received();
            for (int i = from; i < messages.size(); i++)
            {
                if (match.test(messages.get(i)))
                {
                    found[0] = messages.get(i);
                    return true;
                }
            }
            return false;
        });
        return found[0];
    }

    public Message await(final Predicate<Message> match, final String what)
    {
        return await(0, match, what);
    }

    synchronized List<Message> received()
    {
        return new ArrayList<>(received);
    }

    synchronized int size()
    {
        return received.size();
    }

    public static Predicate<Message> type(final String msgType)
    {
        return (message) -> msgType.equals(msgType(message));
    }

    public static Predicate<Message> report(final String clOrdId, final char execType)
    {
        return (message) -> MsgType.EXECUTION_REPORT.equals(msgType(message)) &&
            clOrdId.equals(field(message, 11)) && String.valueOf(execType).equals(field(message, 150));
    }

    static String msgType(final Message message)
    {
        try
        {
            return message.getHeader().getString(MsgType.FIELD);
        }
        catch (final FieldNotFound ex)
        {
            return "?";
        }
    }

    public static String field(final Message message, final int tag)
    {
        try
        {
            return message.getString(tag);
        }
        catch (final FieldNotFound ex)
        {
            return null;
        }
    }

    @Override
    public void close()
    {
        initiator.stop(true);
    }

    /**
     * Stop the initiator without a Logout, as a client process that dies.
     */
    void kill()
    {
        initiator.stop(true);
    }

    @Override
    public void onCreate(final SessionID sessionId)
    {
    }

    @Override
    public void onLogon(final SessionID sessionId)
    {
    }

    @Override
    public void onLogout(final SessionID sessionId)
    {
    }

    @Override
    public void toAdmin(final Message message, final SessionID sessionId)
    {
        if (MsgType.LOGON.equals(msgType(message)))
        {
            if (null != userName)
            {
                message.setField(new Username(userName));
            }
            if (null != password)
            {
                message.setField(new Password(password));
            }
        }
    }

    @Override
    public synchronized void fromAdmin(final Message message, final SessionID sessionId)
    {
        received.add(message);
    }

    @Override
    public void toApp(final Message message, final SessionID sessionId)
    {
    }

    @Override
    public synchronized void fromApp(final Message message, final SessionID sessionId)
    {
        received.add(message);
    }
}
