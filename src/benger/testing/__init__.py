"""Test fixtures usable by every area: the OpenAI-compatible stub server."""

from benger.testing._dialects import Dialect
from benger.testing._faults import Fault, FaultPlan
from benger.testing._responder import default_responder
from benger.testing._server import StubServer, run_stub_server

__all__ = ["Dialect", "Fault", "FaultPlan", "StubServer", "default_responder", "run_stub_server"]
