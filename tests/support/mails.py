"""Building raw order mails for tests."""

from __future__ import annotations

from email.message import EmailMessage


def mail(
    body: str,
    *,
    sender: str = "alice@example.org",
    message_id: str = "m1@example.org",
    subject: str = "orders",
    headers: dict[str, str] | None = None,
) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "moderator@pbem.localhost"
    message["Subject"] = subject
    message["Message-ID"] = f"<{message_id}>"
    for name, value in (headers or {}).items():
        message[name] = value
    message.set_content(body)
    return message.as_bytes()


def order_mail(
    game: str, seat: str, password: str, orders: str, *, turn: int | None = None, **kwargs: object
) -> bytes:
    head = f"GAME {game} SEAT {seat} PASSWORD {password}\n"
    if turn is not None:
        head += f"TURN {turn}\n"
    return mail(head + orders, **kwargs)  # type: ignore[arg-type]
