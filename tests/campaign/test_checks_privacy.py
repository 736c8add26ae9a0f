"""The privacy invariants (checks_privacy.py) on mail made up here: a right record passes, and
each way a secret can leak is found and named: a mail's text, a header, an attachment, the
anonymous writer's name in the writer's thread (only there), a public page; a told secret
that reached none of its owners fails too. The real pipeline's leaks are caught in
test_privacy_leaks.py."""

from __future__ import annotations

import json
from email.message import EmailMessage

from tests.campaign.checks_privacy import secrets_kept, secrets_told
from tests.campaign.record import Received, Record, Secret

PRESS = "planted-press-0c4f"


def _record() -> Record:
    record = Record(
        game="g1",
        ruleset="temples-and-swords",
        zone="UTC",
        addresses={name: f"{name}-1@pbem.test" for name in ("ann", "bob", "referee")},
        referee="referee",
        first_holders={"ann": "ann", "bob": "bob"},
    )
    record.mail = {name: [] for name in record.addresses}
    record.secrets = [
        Secret("password", "pw-ann-5", frozenset({"ann"})),
        Secret("address", "ann-1@pbem.test", frozenset({"ann", "referee"})),
        Secret("press", PRESS, frozenset({"ann", "bob", "referee"}), told=True),
        Secret("anonymous writer", "ann", frozenset({"ann", "referee"}), within=(PRESS,)),
    ]
    return record


def _deliver(record: Record, owner: str, subject: str, text: str, **headers: str) -> None:
    message = EmailMessage()
    message["From"] = "PBEM <moderator@pbem.test>"
    message["To"] = record.addresses[owner]
    message["Subject"] = subject
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    message.set_content(text)
    record.mail[owner].append(Received(1, owner, message))


def _right() -> Record:
    """ann's anonymous press reaches bob unnamed; ann's own mail names her, with her
    password; bob's report names ann, outside the thread."""
    record = _right_without_press()
    _deliver(record, "bob", "[g1] anonymous press", f"Anonymous press (to bob):\n\n{PRESS}\n")
    return record


def _right_without_press() -> Record:
    record = _record()
    _deliver(record, "ann", "[g1] game begins", "You are ann; your password: pw-ann-5.")
    _deliver(record, "bob", "[g1] turn 1 report", "ann took C4 from you.")
    _deliver(record, "referee", "[g1] press", f"A copy: ann (ann-1@pbem.test) wrote {PRESS}")
    return record


def _kept(record: Record) -> list[str]:
    return [str(violation) for violation in secrets_kept(record)]


def test_a_right_record_keeps_and_tells_every_secret() -> None:
    record = _right()
    assert _kept(record) == []
    assert secrets_told(record) == []


def test_a_password_in_another_players_mail_is_found() -> None:
    record = _right()
    _deliver(record, "bob", "Re: orders", "Accepted. (ann's is pw-ANN-5)")
    assert _kept(record) == [
        "secret-kept: bob's mail 'Re: orders' (step 1) carries the password 'pw-ann-5', "
        "which only ann may know"
    ]


def test_an_address_in_a_header_or_an_attachment_is_found() -> None:
    record = _right()
    _deliver(record, "bob", "Re: status", "Nothing.", Reply_To="ann-1@pbem.test")
    _deliver(record, "bob", "[g1] turn 2 report", "Your report.")
    data = json.dumps({"seats": {"ann": "ann-1@pbem.test"}}).encode()
    record.mail["bob"][-1].message.add_attachment(data, "application", "json", filename="r.json")
    found = _kept(record)
    assert len(found) == 2
    assert "bob's mail 'Re: status'" in found[0] and "'ann-1@pbem.test'" in found[0]
    assert "bob's mail '[g1] turn 2 report'" in found[1]


def test_the_anonymous_writer_is_found_in_the_thread_alone() -> None:
    record = _right()
    _deliver(record, "bob", "[g1] anonymous press", f"Anonymous press (to bob): {PRESS}\n-- Ann")
    _deliver(record, "bob", "Re: chat", f"{PRESS}: annie and Ann-Marie are no seats.")
    found = _kept(record)
    assert found == [
        "secret-kept: bob's mail '[g1] anonymous press' (step 1) carries the anonymous "
        "writer 'ann', which only ann, referee may know"
    ]


def test_a_secret_on_a_public_page_is_found() -> None:
    record = _right()
    record.pages = {"index.html": b"<p>games</p>", "games/g1/turn-1.html": PRESS.encode()}
    assert _kept(record) == [
        f"secret-kept: the public page games/g1/turn-1.html carries the press {PRESS!r}"
    ]


def test_a_told_secret_that_reached_none_of_its_owners_fails() -> None:
    record = _right_without_press()
    record.mail["referee"].clear()
    assert [str(v) for v in secrets_told(record)] == [
        f"secret-told: the press {PRESS!r} reached none of its owners"
    ]
