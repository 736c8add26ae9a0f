"""The `via` fixture: every referee command test runs by command line and by mail."""

from tests.referee.support import via

__all__ = ["via"]
