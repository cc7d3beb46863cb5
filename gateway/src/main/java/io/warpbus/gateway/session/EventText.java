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

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The text fields of events: a uint16 length and up to {@link EventDescriptor#TEXT_WIDTH} ASCII bytes, written
 * without allocating (anything outside printable ASCII becomes '?').
 */
public final class EventText
{
    private EventText()
    {
    }

    /**
     * Write a text field.
     *
     * @param buffer to write to.
     * @param offset of the length.
     * @param text   the text, cut at the field's width.
     * @return bytes written.
     */
    public static int put(final MutableDirectBuffer buffer, final int offset, final CharSequence text)
    {
        final int length = Math.min(EventDescriptor.TEXT_WIDTH, text.length());
        buffer.putShort(offset, (short)length);
        for (int i = 0; i < length; i++)
        {
            final char c = text.charAt(i);
            buffer.putByte(offset + 2 + i, (byte)(c >= 0x20 && c < 0x7F ? c : '?'));
        }
        return 2 + length;
    }

    /**
     * Read a text field.
     *
     * @param buffer to read.
     * @param offset of the length.
     * @return the text.
     */
    public static String get(final DirectBuffer buffer, final int offset)
    {
        final int length = Math.min(EventDescriptor.TEXT_WIDTH, buffer.getShort(offset) & 0xFFFF);
        return buffer.getStringWithoutLengthAscii(offset + 2, length);
    }
}
