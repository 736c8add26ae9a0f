"""`pbem unstop ADDRESS --reason "..."`: the operator ends a stop (STOP) for a player who
lost the code that ends it by mail (UNSTOP <code>), once they have made sure by other means
that whoever reads that address asks for it. It does what UNSTOP does (pbem.games.unstopping):
the address is told, with what changed meanwhile, and so are its seats' referees; and each
game's audit log keeps who did it and why."""

from __future__ import annotations

import argparse
import uuid
from collections.abc import Callable
from datetime import datetime

from pbem.errors import PbemError
from pbem.games.outbox import Letter, queue
from pbem.games.service import Service
from pbem.games.unstopping import Started, start_again, tell_referees
from pbem.mail.compose import stable_message_id
from pbem.store import OutboxKind
from pbem.store.work import Work
from pbem.templates import render

ACTOR = "cli"  # as `pbem referee` run without --as: the operator


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    handler: Callable[[argparse.Namespace], int],
) -> None:
    text = "start the mail to an address that sent STOP again (its player lost the code)"
    parser = sub.add_parser("unstop", help=text, description=text)
    parser.set_defaults(handler=handler)
    parser.add_argument("address", help="the address that sent STOP")
    parser.add_argument("--reason", required=True, help="why: kept in the games' audit logs")


def run(service: Service, args: argparse.Namespace, now: datetime) -> str:
    address = args.address.strip().lower()
    why = f"by the operator: {args.reason.strip()}"
    with service.store.transaction() as work:
        started = start_again(work, now, address, actor=ACTOR, why=why)
        if started is None:
            raise PbemError(f"{address} was not stopped: there was nothing to start again")
        key = f"cli-{uuid.uuid4().hex}"  # each run is a new action, its mail's ids new too
        _tell_address(service, work, now, address, started, key)
        tell_referees(work, service.settings, now, address, started, key=key, operator=True)
    seats = f"; its seats: {', '.join(started.named())}" if started.seats else ""
    return f"mail to {address} again{seats}"


def _tell_address(
    service: Service, work: Work, now: datetime, address: str, started: Started, key: str
) -> None:
    settings = service.settings
    body = render(
        "unstop_done",
        moderator=settings.mail.name,
        address=address,
        stopped=True,
        seats=started.named(),
        lost=started.lost,
    )
    message_id = stable_message_id("unstop", key, address, domain=settings.mail.domain)
    subject = "Your mail from the moderator again"
    letter = Letter(OutboxKind.REPLY, address, subject, body, message_id)
    queue(work, settings, letter, now=now)
