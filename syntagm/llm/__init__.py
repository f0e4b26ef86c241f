"""LLM access: client, telemetry, robust reply parsing, record/replay."""
from .client import ChatClient, ChatReply, LLMConfig, OpenAIChatClient, usage_counts
from .parse import extract_json_object, require_keys
from .telemetry import CallTelemetry, RunTelemetry
from .transcript import RecordingClient, ReplayClient, read_transcript

__all__ = ["ChatClient", "ChatReply", "LLMConfig", "OpenAIChatClient", "usage_counts", "extract_json_object",
           "require_keys", "CallTelemetry", "RunTelemetry", "RecordingClient", "ReplayClient", "read_transcript"]
