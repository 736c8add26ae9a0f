"""The games as stored and mailed: the Service (database + settings), games, seats and turns
read back, the outbox, turn reports, game creation, held orders and the seed commitment.

The lowest game layer (docs/architecture.md): it imports only the foundations."""
