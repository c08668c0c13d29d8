"""The server's one conversion of a failure into a refusal (the wire's ERROR is then made by
:meth:`protocol.Error.refusing`)."""

from __future__ import annotations

import logging

from paiju.protocol import ErrorCode, PaijuError

log = logging.getLogger("paiju.server")


def refusal(e: BaseException, what: str) -> PaijuError:
    """The refusal that answers an input whose handling failed with ``e``: ``e`` itself when
    it is one (:class:`protocol.PaijuError`), else INTERNAL, logged with its traceback (a bug
    must not take the room, the connection or the server down).

    >>> refusal(ValueError("x"), "test").message
    'internal error'
    """
    if isinstance(e, PaijuError):
        return e
    log.error("%s failed", what, exc_info=e)
    return PaijuError(ErrorCode.INTERNAL, "internal error")
