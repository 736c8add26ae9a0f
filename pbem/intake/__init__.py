"""Mail in: recording and handling one inbound mail (intake, dispatch), the mail commands of
players and referees, order mails, quarantine and replay, and one poll pass.

The top game layer (docs/architecture.md): it may use the clock, the referee and games."""

# The referee command `replay` is the intake's (it handles a mail again); importing the package
# registers it beside the referee's own, for referee mail and the command line alike.
from pbem.intake import replay  # noqa: F401
