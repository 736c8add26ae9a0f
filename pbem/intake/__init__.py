"""Mail in: recording and handling one inbound mail (intake, dispatch), the mail commands of
players and referees, order mails, quarantine and replay, and one poll pass.

The top game layer (docs/architecture.md): it may use the clock, the referee and games."""
