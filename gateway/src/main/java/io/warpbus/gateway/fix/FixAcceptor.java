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
package io.warpbus.gateway.fix;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import io.warpbus.gateway.config.AgentLifecycle;
import org.agrona.CloseHelper;
import org.apache.mina.core.service.IoAcceptor;
import org.apache.mina.core.session.IoSession;
import org.springframework.context.SmartLifecycle;
import quickfix.ConfigError;
import quickfix.DefaultMessageFactory;
import quickfix.FileStoreFactory;
import quickfix.SLF4JLogFactory;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.SessionSettings;
import quickfix.ThreadedSocketAcceptor;
import quickfix.mina.SessionConnector;

/**
 * The gateway's FIX 4.4 acceptor, started after the session core and stopped before it: QuickFIX/J's threaded socket
 * acceptor over the configured sessions, with its file store under the gateway's journal directory, and the
 * {@link FixSender} agent that drains the core's queues into it. With port -1 it does nothing.
 */
public final class FixAcceptor implements SmartLifecycle
{
    private final ThreadedSocketAcceptor acceptor;
    private final AgentLifecycle sender;
    private final Map<SessionID, FixSessionContext> contexts;
    private final Path storeDirectory;
    private volatile boolean running;

    FixAcceptor(final ThreadedSocketAcceptor acceptor, final AgentLifecycle sender,
        final Map<SessionID, FixSessionContext> contexts, final Path storeDirectory)
    {
        this.acceptor = acceptor;
        this.sender = sender;
        this.contexts = contexts;
        this.storeDirectory = storeDirectory;
    }

    /**
     * An acceptor that is off (port -1).
     *
     * @return an acceptor that starts nothing.
     */
    static FixAcceptor disabled()
    {
        return new FixAcceptor(null, null, Collections.emptyMap(), null);
    }

    /**
     * QuickFIX/J's settings for the configured sessions.
     *
     * @param properties     the FIX properties.
     * @param storeDirectory where the file store lives.
     * @return the settings.
     */
    static SessionSettings settings(final FixProperties properties, final Path storeDirectory)
    {
        final SessionSettings settings = new SessionSettings();
        settings.setString("ConnectionType", "acceptor");
        settings.setString("SocketAcceptPort", Integer.toString(properties.port()));
        settings.setString("SocketAcceptAddress", properties.address());
        settings.setString("FileStorePath", storeDirectory.toString());
        settings.setString("FileStoreSync", "N");
        settings.setString("NonStopSession", "Y");
        settings.setString("UseDataDictionary", "Y");
        settings.setString("DataDictionary", "FIX44.xml");
        settings.setString("ValidateUserDefinedFields", "N");
        settings.setString("AllowUnknownMsgFields", "N");
        settings.setString("RejectInvalidMessage", "Y");
        settings.setString("ResetOnLogon", "N");
        settings.setString("ResetOnLogout", "N");
        settings.setString("ResetOnDisconnect", "N");
        settings.setString("PersistMessages", "Y");
        settings.setString("SocketTcpNoDelay", "Y");
        settings.setString("SocketReuseAddress", "Y");
        return settings;
    }

    /**
     * The MINA session of the socket a QuickFIX/J session is logged on over: its scheduled writes are what the
     * client has not yet read past the socket's buffers. Logon path.
     *
     * @param acceptor the acceptor.
     * @param session  a session of it.
     * @return the MINA session, or null when it has no socket now.
     */
    static IoSession ioSession(final ThreadedSocketAcceptor acceptor, final Session session)
    {
        for (final IoAcceptor endpoint : acceptor.getEndpoints())
        {
            for (final IoSession ioSession : endpoint.getManagedSessions().values())
            {
                if (session == ioSession.getAttribute(SessionConnector.QF_SESSION))
                {
                    return ioSession;
                }
            }
        }
        return null;
    }

    static SessionID sessionId(final FixProperties.Session session)
    {
        return new SessionID("FIX.4.4", session.targetCompId(), session.senderCompId());
    }

    /**
     * The port the acceptor listens on.
     *
     * @return the bound port, or -1 when off or not started.
     */
    public int port()
    {
        if (null == acceptor || !running)
        {
            return -1;
        }
        for (final IoAcceptor endpoint : acceptor.getEndpoints())
        {
            final SocketAddress address = endpoint.getLocalAddress();
            if (address instanceof InetSocketAddress inet)
            {
                return inet.getPort();
            }
        }
        return -1;
    }

    /**
     * The configured FIX sessions and whether each is logged on now.
     *
     * @return session id (as {@code FIX.4.4:SENDER->TARGET} from the gateway's side) to logged on.
     */
    public Map<String, Boolean> sessions()
    {
        final Map<String, Boolean> sessions = new LinkedHashMap<>();
        contexts.forEach((id, context) ->
        {
            final FixConnection fix = context.current;
            sessions.put(id.toString(), null != fix && fix.live);
        });
        return sessions;
    }

    /**
     * Where QuickFIX/J's store and the adapter's session state live.
     *
     * @return the directory, or null when off.
     */
    public Path storeDirectory()
    {
        return storeDirectory;
    }

    @Override
    public synchronized void start()
    {
        if (null == acceptor || running)
        {
            return;
        }
        sender.start();
        try
        {
            acceptor.start();
        }
        catch (final ConfigError ex)
        {
            sender.stop();
            throw new IllegalStateException("the FIX acceptor cannot start: " + ex.getMessage(), ex);
        }
        running = true;
    }

    @Override
    public synchronized void stop()
    {
        if (null == acceptor || !running)
        {
            return;
        }
        running = false;
        acceptor.stop(true);
        sender.stop();
        contexts.values().forEach(CloseHelper::quietClose);
    }

    @Override
    public boolean isRunning()
    {
        return running;
    }

    @Override
    public int getPhase()
    {
        return AgentLifecycle.SENDER_PHASE + 1;
    }

    static ThreadedSocketAcceptor acceptor(final FixApplication application, final SessionSettings settings)
        throws ConfigError
    {
        return new ThreadedSocketAcceptor(application, new FileStoreFactory(settings), settings,
            new SLF4JLogFactory(settings), new DefaultMessageFactory());
    }
}
