"""The quarantine's reason codes: the one list of them. A mail is set aside only under one of
these (pbem.intake.context refuses any other), and docs/operations.md's table explains each
(a test checks that it names them all)."""

from __future__ import annotations

REASONS = frozenset(
    {
        # The mail or its seat (pbem.intake.auth), the referee's password (referee_mail)
        "envelope", "unknown-game", "unknown-seat", "password", "address", "referee-password",
        # A referee's mail (referee_mail), or a seat's orders (orders), from or for an address
        # that asked for no more mail
        "stopped",
        # The game or the seat takes no orders now
        "stale", "no-turn", "not-started", "game-over", "seat-disorder", "seat-bot",
        # A command refused
        "join", "no-report", "set", "confirm", "resign",
        # Refused before any work
        "too-big", "too-long", "no-sender",
        # Handling crashed (pbem.intake.intake, pbem.intake.quarantine)
        "error",
    }
)  # fmt: skip

# The reasons that need an operator: a crash (a bug; no reply was sent) and mail with nobody
# to answer. Every other reason is a player's mistake already answered with a refusal, as
# Mailman keeps its shunt queue apart from the mail it rejected.
ATTENTION = frozenset({"error", "no-sender"})

# The reasons set aside with no answer, and no operator needed: the sender asked for no more
# mail (STOP), so none is sent; UNSTOP lets the mail be replayed.
UNANSWERED = frozenset({"stopped"})
