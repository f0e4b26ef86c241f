"""A pygls client session against `python -m pyopl lsp` over stdio, for the LSP tests: start,
initialize (with options), open documents, wait for published diagnostics, stop cleanly."""
from __future__ import annotations

import asyncio
import sys
from typing import Any

from lsprotocol import types as T
from pygls.lsp.client import LanguageClient


class Session:
    """One server process and its client; use as ``async with Session(root_uri, options) as s``."""

    def __init__(self, root_uri: str, options: Any = None, workspace_folders: bool = True):
        self.root_uri, self.options, self.workspace_folders = root_uri, options, workspace_folders
        self.client = LanguageClient("test-client", "1")
        self.published: dict[str, list] = {}
        self.messages: list[T.ShowMessageParams] = []
        self.arrived = asyncio.Event()
        self.capabilities: T.ServerCapabilities | None = None

        @self.client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(ls, params: T.PublishDiagnosticsParams) -> None:
            self.published.setdefault(params.uri, []).append(params.diagnostics)
            self.arrived.set()

        @self.client.feature(T.WINDOW_SHOW_MESSAGE)
        def on_message(ls, params: T.ShowMessageParams) -> None:
            self.messages.append(params)
            self.arrived.set()

    async def __aenter__(self) -> "Session":
        await self.client.start_io(sys.executable, "-m", "pyopl", "lsp")
        folders = [T.WorkspaceFolder(uri=self.root_uri, name="root")] if self.workspace_folders else None
        result = await self.client.initialize_async(T.InitializeParams(
            capabilities=T.ClientCapabilities(), root_uri=self.root_uri, workspace_folders=folders,
            initialization_options=self.options))
        self.capabilities = result.capabilities
        self.client.initialized(T.InitializedParams())
        return self

    async def __aexit__(self, *exc: Any) -> None:
        client = self.client
        try:
            if exc[0] is None:
                await asyncio.wait_for(client.shutdown_async(None), 10)
                client.exit(None)
        finally:
            # a failed step leaves the server running: end it so that stop() cannot wait forever
            server = getattr(client, "_server", None)
            if server is not None and server.returncode is None:
                try:
                    await asyncio.wait_for(server.wait(), 5)
                except asyncio.TimeoutError:
                    server.kill()
            await client.stop()

    def open(self, uri: str, text: str, language_id: str = "opl") -> None:
        self.client.text_document_did_open(T.DidOpenTextDocumentParams(
            text_document=T.TextDocumentItem(uri=uri, language_id=language_id, version=1, text=text)))

    async def diagnostics(self, uri: str, count: int = 1) -> list[T.Diagnostic]:
        """The diagnostics of the ``count``-th publication for ``uri`` from now (waits up to 60 s)."""
        n = len(self.published.get(uri, []))
        for _ in range(600):
            if len(self.published.get(uri, [])) >= n + count:
                return self.published[uri][n + count - 1]
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), 0.1)
            except asyncio.TimeoutError:
                pass
        raise AssertionError("no diagnostics published for %s" % uri)

    async def latest(self, uri: str, where: Any) -> list[T.Diagnostic]:
        """Wait (up to 60 s) until the latest publication for ``uri`` satisfies ``where``."""
        for _ in range(600):
            got = self.published.get(uri)
            if got and where(got[-1]):
                return got[-1]
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), 0.1)
            except asyncio.TimeoutError:
                pass
        raise AssertionError("no matching diagnostics for %s: %s" % (uri, self.published.get(uri)))
