"""LLM providers behind one protocol, one retry policy and a model catalog."""

from benger.llm._protocol import ChatMessage, ChatModel, ChatRequest, ChatResponse, Usage

__all__ = ["ChatMessage", "ChatModel", "ChatRequest", "ChatResponse", "Usage"]
