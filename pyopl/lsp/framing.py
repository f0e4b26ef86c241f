"""The language server's input, framed again: only well-formed messages reach pygls.

LSP frames each JSON-RPC message with headers (``Content-Length: N``, a blank line) and N bytes of
body (LSP specification, "Base Protocol"). pygls trusts the header: ``Content-Length: 99999999999``
made it allocate the length and die (MemoryError); a length one byte short, a negative or a
non-numeric one left the next message's header unread, so the server answered nothing again.
:class:`FramedInput` sits between stdin and pygls (it offers the ``readline``/``read`` pygls
calls) and hands on only frames whose length is a number up to :data:`MAX_MESSAGE` and whose body
is JSON, re-written in the canonical form. Anything else is dropped with a log line, and reading
resumes at the next ``Content-Length`` header found in the stream (also in the middle of a line,
where the tail of a frame that was too short runs into the next header).
"""
from __future__ import annotations

import json
import logging
import re
from typing import BinaryIO

#: the largest message body taken (bytes); a longer one is dropped (a model of 64 MB is no editor's)
MAX_MESSAGE = 64 * 1024 * 1024
#: the longest header line read at once: a longer run of bytes without a newline is skipped in pieces
MAX_HEADER_LINE = 64 * 1024

_LENGTH = re.compile(rb"Content-Length:[ \t]*([^\r\n]*)", re.I)
log = logging.getLogger("pyopl.lsp")


class FramedInput:
    """A binary stream of well-formed LSP frames read from ``raw`` (see the module docstring)."""

    def __init__(self, raw: BinaryIO):
        self.raw = raw
        self.ready = b""  # the canonical bytes of the frame being handed on
        self.dropped = 0  # malformed frames skipped (for tests and logs)

    # ------------------------------------------------------------------ what pygls calls
    def readline(self, limit: int = -1) -> bytes:
        if not self.ready and not self._fill():
            return b""
        end = self.ready.find(b"\n")
        end = len(self.ready) if end < 0 else end + 1
        if 0 <= limit < end:
            end = limit
        line, self.ready = self.ready[:end], self.ready[end:]
        return line

    def read(self, n: int = -1) -> bytes:
        if not self.ready and not self._fill():
            return b""
        if n is None or n < 0:
            n = len(self.ready)
        out, self.ready = self.ready[:n], self.ready[n:]
        return out

    # ------------------------------------------------------------------ framing
    def _fill(self) -> bool:
        """Read the next well-formed frame into :attr:`ready`; False at the end of the input."""
        while True:
            length = self._headers()
            if length is None:
                return False
            if length < 0:
                continue  # a malformed header: dropped, look for the next one
            body = self._exactly(length)
            if body is None:
                return False
            try:
                json.loads(body)
            except ValueError:  # (UnicodeDecodeError included) a length that cut the body, or no JSON
                self._drop("a message body that is not JSON (%d bytes)" % length)
                continue
            self.ready = b"Content-Length: %d\r\n\r\n" % len(body) + body
            return True

    def _headers(self) -> int | None:
        """The body length of the next frame (its headers read up to the blank line); -1 when the
        headers are malformed (the frame is dropped); None at the end of the input."""
        length: int | None = None
        bad = None
        seen = False
        while True:
            line = self.raw.readline(MAX_HEADER_LINE)
            if not line:
                return None
            if not line.strip():
                if not seen:
                    continue  # blank lines between frames
                break
            m = _LENGTH.search(line)
            if m is None:
                if not seen:
                    continue  # bytes before any header (the rest of a dropped frame): skipped
                if b":" not in line:
                    bad = "a header line without a name"
                continue  # another header (Content-Type)
            seen = True
            text = m.group(1).strip()
            if not text.isdigit():
                bad = "the length %r" % text[:40].decode("latin-1")
            elif int(text) > MAX_MESSAGE:
                bad = "a length of %s bytes, over %d" % (text[:20].decode(), MAX_MESSAGE)
            else:
                length = int(text)
        if bad is not None or length is None:
            self._drop(bad or "headers without a length")
            return -1
        return length

    def _exactly(self, n: int) -> bytes | None:
        parts, left = [], n
        while left > 0:
            chunk = self.raw.read(left)
            if not chunk:
                return None
            parts.append(chunk)
            left -= len(chunk)
        return b"".join(parts)

    def _drop(self, why: str) -> None:
        self.dropped += 1
        log.warning("dropped a malformed message: %s", why)
