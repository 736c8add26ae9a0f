"""The database keeps every mail as it came, but an answered mail's passwords masked: whoever
reads the database, or a backup of it, does not read the seats' passwords there. A mail that
may be replayed (quarantined) is kept whole."""

from __future__ import annotations

from datetime import datetime
from email import message_from_bytes, policy
from email.message import EmailMessage

from sqlalchemy import event

from pbem.games.service import Service
from pbem.intake.context import MailContext
from pbem.intake.intake import receive, replay
from pbem.mail.masking import masked_mail
from pbem.mail.reading import read_mail
from pbem.store import transaction
from pbem.store.models import InboundMessage
from pbem.store.work import work_of
from tests.support.games import inbound, new_game
from tests.support.mails import mail, order_mail


def _texts(raw: bytes) -> list[str]:
    message = message_from_bytes(raw, policy=policy.default)
    return [
        part.get_content()  # type: ignore[attr-defined]
        for part in message.walk()
        if part.get_content_maintype() == "text"
    ]


def test_an_accepted_order_mail_is_kept_with_its_password_masked(
    service: Service, now: datetime
) -> None:
    new_game(service, now)
    raw = order_mail("g1", "alice", "pw-alice", "ADD 2\n")
    assert receive(service, raw, now=now).status == "accepted"
    [stored] = inbound(service)
    assert b"pw-alice" not in stored.raw
    assert _texts(stored.raw) == ["GAME g1 SEAT alice PASSWORD ********\nADD 2\n"]
    assert len(stored.raw) == len(raw)


def test_a_password_in_a_base64_or_quoted_printable_part_is_masked_too(
    service: Service, now: datetime
) -> None:
    new_game(service, now)
    message = EmailMessage()
    message["From"], message["To"] = "alice@example.org", "moderator@pbem.localhost"
    message["Subject"], message["Message-ID"] = "orders", "<phone@example.org>"
    message.set_content("GAME g1 SEAT alice PASSWORD pw-alice\nADD 2\n", cte="base64")
    html = "<p>GAME g1 SEAT alice PASSWORD pw-alice<br>ADD 2</p>"
    message.add_alternative(html, subtype="html", cte="quoted-printable")
    assert receive(service, message.as_bytes(), now=now).status == "accepted"
    [stored] = inbound(service)
    texts = _texts(stored.raw)
    assert texts[0] == "GAME g1 SEAT alice PASSWORD ********\nADD 2\n"
    assert "PASSWORD ********<br>" in texts[1] and "pw-alice" not in "".join(texts)
    stored_message = message_from_bytes(stored.raw, policy=policy.default)
    encodings = [part["Content-Transfer-Encoding"] for part in stored_message.walk()][1:]
    assert encodings == ["base64", "quoted-printable"]  # each part encoded as it came


def test_set_password_masks_the_old_password_and_the_new(service: Service, now: datetime) -> None:
    new_game(service, now)
    raw = order_mail("g1", "alice", "pw-alice", "SET PASSWORD Lark-Song-77\n")
    assert receive(service, raw, now=now).status == "answered"
    [stored] = inbound(service)
    assert b"pw-alice" not in stored.raw and b"Lark-Song-77" not in stored.raw


def test_a_quarantined_mail_is_kept_whole_and_masked_once_a_replay_takes_it(
    service: Service, now: datetime
) -> None:
    raw = order_mail("g1", "alice", "pw-alice", "ADD 2\n")
    assert receive(service, raw, now=now).status == "quarantined"  # no game g1 yet
    [stored] = inbound(service)
    assert stored.raw == raw  # a replay needs the password
    wrong = order_mail("g1", "alice", "pw-alicf", "ADD 2\n", message_id="m2@example.org")
    new_game(service, now)
    assert receive(service, wrong, now=now).outcome.startswith("password:")
    with transaction(service.db) as session:
        assert session.get(InboundMessage, 2).raw == wrong  # type: ignore[union-attr]
    assert replay(service, 1, now=now).status == "accepted"
    assert b"pw-alice" not in inbound(service)[0].raw


def test_masking_leaves_a_mail_without_the_password_as_it_was() -> None:
    raw = mail("HELP")
    assert masked_mail(raw, ["pw-alice"]) == raw
    assert masked_mail(raw, []) == raw
    head = b"Content-Transfer-Encoding: base64\r\n\r\n"
    assert masked_mail(head + b"!!!pw-alice", ["pw-alice"]) == head + b"!!!********"


def test_an_answered_mail_is_written_once_with_its_status_and_its_password_masked(
    service: Service, now: datetime
) -> None:
    """The row is written at the mail's first flush, the check reply's, with the mask laid
    before: an INSERT, then an UPDATE of the status, then one of the masked mail were three
    round trips on PostgreSQL."""
    new_game(service, now)
    writes: list[tuple[str, object]] = []

    def watch(
        _conn: object, _cursor: object, statement: str, parameters: object, *_: object
    ) -> None:
        if "inbound_message" in statement and not statement.startswith("SELECT"):
            writes.append((statement.split(" ", 1)[0], parameters))

    event.listen(service.db, "before_cursor_execute", watch)
    try:
        raw = order_mail("g1", "alice", "pw-alice", "ADD 2\n")
        assert receive(service, raw, now=now).status == "accepted"
    finally:
        event.remove(service.db, "before_cursor_execute", watch)
    assert [kind for kind, _ in writes] == ["INSERT"]
    assert "accepted" in str(writes[0][1]) and "pw-alice" not in str(writes[0][1])
    assert b"pw-alice" not in inbound(service)[0].raw


def test_a_mail_masked_then_set_aside_is_kept_whole_again(service: Service, now: datetime) -> None:
    raw = order_mail("g1", "alice", "pw-alice", "ADD 2\n")
    with transaction(service.db) as session:
        row = InboundMessage(message_id="m@x", raw=raw, sender="a@x", subject="", received_at=now)
        session.add(row)
        session.flush()
        context = MailContext(work_of(session), service.settings, row, read_mail(raw), now)
        context.passwords.append("pw-alice")
        context.finish("accepted", "orders")
        context.mask_passwords()
        assert b"pw-alice" not in row.raw
        context.set_aside("error", "found wrong after all")  # a replay needs the password
        context.mask_passwords()
        assert row.raw == raw
