"""What counts as a mail address, for the whole project: a seat's or a referee's on the
command line, our own in the settings, the From of a mail, an address a referee command or a
player's mail gives.

One plain address, `local@domain.tld`, as mail servers route it: not a display name, not a
list, not a route. Deliberately narrower than RFC 5322 (no quoted local parts, no comments,
no bare `localhost` domains): an address that only the RFC allows is far more often a typo
than a player's real one, and a typo found when it is given beats a bounce found at the
first report.
"""

from __future__ import annotations

from pbem.errors import PbemError

MAX_LENGTH = 254  # RFC 5321: a path is at most 256 characters with its brackets
MAX_LOCAL = 64  # RFC 5321: the part before the @
MAX_LABEL = 63  # RFC 1035: one part of a domain name
# Characters that make a text a list, a display name or a route rather than one address.
_NOT_IN_ADDRESS = frozenset('<>()[]\\,;:"')
EXAMPLE = "ann@example.org"


class AddressError(PbemError, ValueError):
    """A text given as a mail address that is not one; the message says why."""


def address_problem(text: str) -> str:
    """Why `text` is not one mail address, or '' when it is one."""
    if not text:
        return "it is empty"
    if len(text) > MAX_LENGTH:
        return f"it is longer than {MAX_LENGTH} characters"
    odd = next((c for c in text if c in _NOT_IN_ADDRESS or not c.isprintable() or c.isspace()), "")
    if odd:
        return f"it holds {odd!r}: give one address, like {EXAMPLE}"
    if text.count("@") != 1:
        return f"it needs exactly one @, like {EXAMPLE}"
    local, _, domain = text.partition("@")
    if not local:
        return "nothing comes before the @"
    if len(local) > MAX_LOCAL:
        return f"the part before the @ is longer than {MAX_LOCAL} characters"
    if not domain:
        return "nothing comes after the @"
    return _domain_problem(domain)


def _domain_problem(domain: str) -> str:
    labels = domain.split(".")
    if len(labels) < 2 or not all(_is_label(label) for label in labels):
        return f"{domain!r} after the @ is not a domain name, like example.org"
    return ""


def _is_label(label: str) -> bool:
    """Letters (any script: internationalised domains), digits and inner hyphens."""
    return (
        0 < len(label) <= MAX_LABEL
        and all(c.isalnum() or c == "-" for c in label)
        and not label.startswith("-")
        and not label.endswith("-")
    )


def is_address(text: str) -> bool:
    return not address_problem(text)


def checked_address(text: str) -> str:
    """`text` lower-cased (addresses are stored and compared so), or AddressError saying
    why it is not an address."""
    problem = address_problem(text)
    if problem:
        raise AddressError(f"{text!r} is not a mail address: {problem}")
    return text.lower()
