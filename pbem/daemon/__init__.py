"""The long-running moderator (`pbem serve`): its start (the database reached and brought up
to date), the transport chosen by [service], four runners (intake, the clocks, the courier,
the web archive's writer), each woken by its Wake, and the one clock that wakes them on time
(docs/architecture.md, "The daemon")."""
