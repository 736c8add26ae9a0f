"""Retention of sent mail: [outbox] keep_sent_days after a mail was sent, its bytes (text and
attachments, which are one MIME message in Outbox.raw) are dropped and the time is recorded
(Outbox.pruned_at). The row stays: who got it, when, its kind, subject and Message-ID, for
the audit, the per-address reply limit (it counts rows), and the unique Message-ID that keeps
a mail from being queued twice. A mail not sent (waiting, deferred, bounced, dropped) is never
pruned. Nothing reads an old mail's bytes: a report asked again (REPORT n, a referee's resend)
is drawn again from the stored turn (pbem.games.reports).

The clocks' pass prunes (prune_when_due), in batches of BATCH rows, each a transaction of its
own, so that on SQLite no prune holds the write lock long; a backlog (the first pass after an
upgrade) is worked off a little at each look, and `pbem outbox prune` does it at once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from pbem.config import Settings
from pbem.games.service import Service
from pbem.store import utc
from pbem.store.outbox_prune import any_kept_before, drop_oldest, kept_before

log = logging.getLogger(__name__)
# Rows pruned a transaction: a report with its picture and data is about 60 kB, so a batch
# frees about 12 MB of pages (docs/operations.md, "Retention of sent mail").
BATCH = 200
# A pass that pruned everything due looks again no sooner than this: a day's mail is pruned
# in one look, and the look between costs a statement on the partial index ix_outbox_kept.
EVERY = timedelta(minutes=10)


@dataclass(frozen=True)
class Pruned:
    mails: int = 0
    size: int = 0  # bytes dropped
    left: bool = False  # stopped (enough) with more to prune


def cutoff(settings: Settings, now: datetime) -> datetime | None:
    """Mail sent before this moment is pruned; None: keep_sent_days is 0, keep it for ever."""
    days = settings.outbox.keep_sent_days
    return utc(now) - timedelta(days=days) if days else None


def prunable(service: Service, now: datetime) -> Pruned:
    """What a prune at `now` would drop (`pbem outbox prune --dry-run`)."""
    before = cutoff(service.settings, now)
    if before is None:
        return Pruned()
    return Pruned(*kept_before(service.store, before))


def prune(service: Service, now: datetime, *, enough: Callable[[], bool] = lambda: False) -> Pruned:
    """Drop the bytes of the mail sent more than keep_sent_days before `now`, a batch a
    transaction, until none is left or `enough` says so (asked after each batch: one batch
    at least is pruned, so that a busy daemon still works a backlog off)."""
    before = cutoff(service.settings, now)
    if before is None or not any_kept_before(service.store, before):
        return Pruned()
    mails = size = 0
    while True:
        count, freed = drop_oldest(service.store, before, now, BATCH)
        mails, size = mails + count, size + freed
        if count < BATCH:
            return Pruned(mails, size)
        if enough():
            return Pruned(mails, size, left=True)


def prune_when_due(
    service: Service, now: datetime, *, enough: Callable[[], bool] = lambda: False
) -> Pruned:
    """The clocks' prune: at most every EVERY, or at the next look while a backlog is left.
    A failure is logged and tried again then; it fails no game's clock work."""
    if not service.prune.due(utc(now)) or service.settings.outbox.keep_sent_days == 0:
        return Pruned()
    try:
        pruned = prune(service, now, enough=enough)
    except Exception:
        log.exception("outbox: pruning the sent mail failed; tried again in %s", EVERY)
        service.prune.at = utc(now) + EVERY
        return Pruned()
    if not pruned.left:
        service.prune.at = utc(now) + EVERY
    if pruned.mails:
        log.info("outbox: %s", described(pruned))
    return pruned


def described(pruned: Pruned) -> str:
    more = "; more left for the next look" if pruned.left else ""
    return f"{pruned.mails} sent mail(s) pruned, {pruned.size / 1e6:.1f} MB of their bytes{more}"
