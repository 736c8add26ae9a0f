"""The long-running moderator (`pbem serve`): the transport chosen by [service], the loop that
takes mail in, resolves due turns and drains the outbox, and how long it may sleep between."""
