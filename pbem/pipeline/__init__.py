"""The moderator pipeline: intake, check replies, mail commands, turn resolution, outbox."""
