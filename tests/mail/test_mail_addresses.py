"""The one address check (pbem.mail.addresses), and the From of a mail read with it."""

from __future__ import annotations

import pytest

from pbem.mail.addresses import AddressError, address_problem, checked_address
from pbem.mail.reading import read_mail


@pytest.mark.parametrize(
    "text",
    ["ann@example.org", "Ann.Lee+pbem@mail.example.co.uk", "jörg@bücher.example", "a@b-c.de"],
)
def test_plain_addresses_pass(text: str) -> None:
    assert address_problem(text) == ""
    assert checked_address(text) == text.lower()


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "it is empty"),
        ("ann-at-example.org", "it needs exactly one @"),
        ("notanaddress", "it needs exactly one @"),
        ("ann@", "nothing comes after the @"),
        ("@example.org", "nothing comes before the @"),
        ("a@b@example.org", "it needs exactly one @"),
        ("a@x.org,b@x.org", "it holds ','"),
        ("a@x.org b@x.org", "it holds ' '"),
        ("not an address", "it holds ' '"),
        ("Ann <ann@example.org>", "it holds ' '"),
        ("ann@localhost", "'localhost' after the @ is not a domain name"),
        ("ann@example..org", "'example..org' after the @ is not a domain name"),
        ("ann@-example.org", "'-example.org' after the @ is not a domain name"),
        ("ann@example.org.", "'example.org.' after the @ is not a domain name"),
        ("a" * 65 + "@example.org", "the part before the @ is longer than 64 characters"),
        ("a@" + "b" * 250 + ".org", "it is longer than 254 characters"),
    ],
)
def test_what_is_not_one_address_is_refused_with_why(text: str, why: str) -> None:
    assert address_problem(text).startswith(why)
    with pytest.raises(AddressError) as refused:
        checked_address(text)
    assert str(refused.value) == f"{text!r} is not a mail address: {address_problem(text)}"


def test_a_from_that_is_no_address_gives_no_sender() -> None:
    # The same check as everywhere: a From the command line would refuse is nobody to answer.
    assert read_mail(b"From: Ann <ann@example.org>\n\nx\n").sender == "ann@example.org"
    assert read_mail(b"From: ann@\n\nx\n").sender == ""
    assert read_mail(b"From: ann@example..org\n\nx\n").sender == ""
