"""A private Dovecot for the tests: IMAP (plain+STARTTLS and implicit TLS) and LMTP on free
loopback ports, a config of its own in a temporary directory, no system service touched.

Accounts live in passwd-files with plain passwords, one file per account: Dovecot notices a
change to a passwd-file only once a second, but opens a file it has not seen before at once. So
tests add fresh accounts while it runs and never share a mailbox: no cleanup between tests, and
no order between them that matters.

As root, mail is stored as `nobody`, because Dovecot refuses to deliver as uid 0; as another
user, everything runs as that user.
"""

from __future__ import annotations

import contextlib
import getpass
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

DOVECOT = "/usr/sbin/dovecot"
DOVEADM = "/usr/bin/doveadm"
NOBODY = 65534
DOMAIN = "pbem.test"


@dataclass(frozen=True)
class Account:
    address: str
    password: str


class Dovecot:
    def __init__(self, root: Path, cert: Path, key: Path) -> None:
        if not Path(DOVECOT).exists():
            raise RuntimeError(
                f"{DOVECOT} is missing: apt-get install $(grep -v '^#' .ci/apt-packages)"
            )
        self.root = root
        self.cert = cert
        self.key = key
        self.imap_port = free_port()
        self.imaps_port = free_port()
        self.lmtp_port = free_port()
        self.conf = root / "dovecot.conf"
        self.users = root / "users"
        self.log = root / "dovecot.log"
        self._users: dict[str, str] = {}
        self._process: subprocess.Popen[bytes] | None = None
        self._uid = NOBODY if os.geteuid() == 0 else os.geteuid()
        self._gid = NOBODY if os.geteuid() == 0 else os.getegid()
        mail = root / "mail"
        mail.mkdir()
        if os.geteuid() == 0:
            os.chown(mail, self._uid, self._gid)
        self.users.mkdir()
        self.conf.write_text(self._config())

    # -- accounts -----------------------------------------------------------------------------

    def add_account(self, local_part: str, password: str) -> Account:
        address = f"{local_part}@{DOMAIN}".lower()
        # Written aside and renamed, so Dovecot never reads half a file.
        part = self.users / f".{address}"
        part.write_text(f"{address}:{{PLAIN}}{password}\n")
        part.chmod(0o644)
        part.replace(self.users / address)
        self._users[address] = password
        return Account(address, password)

    def knows(self, address: str) -> bool:
        """An account's address, or one with a detail after '+' (alice+g7@...: alice's)."""
        local, _, domain = address.lower().partition("@")
        return f"{local.split('+', 1)[0]}@{domain}" in self._users

    def accounts(self) -> dict[str, str]:
        """Address to password, for the SMTP server's AUTH."""
        return dict(self._users)

    # -- the process --------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._process is not None

    def start(self) -> None:
        assert self._process is None, "already running"
        self._process = subprocess.Popen(
            [DOVECOT, "-c", str(self.conf), "-F"],
            stdout=subprocess.DEVNULL,
            stderr=open(self.root / "dovecot.stderr", "ab"),  # noqa: SIM115 - child keeps it
            # Its own process group, so stop() can end the imap/lmtp children too: they
            # outlive the master, serving their connections, unless told to go.
            start_new_session=True,
        )
        for port in (self.imap_port, self.imaps_port, self.lmtp_port):
            wait_for_port(port, process=self._process, log=self.log)

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        group = process.pid  # the session leader's pid is the group id
        _signal_group(group, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            _signal_group(group, signal.SIGKILL)
            process.wait()
        _wait_group_gone(group)
        for port in (self.imap_port, self.imaps_port, self.lmtp_port):
            wait_for_port_closed(port)

    def kick(self, address: str) -> None:
        """Drop every IMAP connection of the user, server side (what a restart looks like)."""
        subprocess.run(
            [DOVEADM, "-c", str(self.conf), "kick", address],
            check=True,
            capture_output=True,
        )

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def _config(self) -> str:
        root = self.root
        unprivileged = ""
        if os.geteuid() != 0:
            me = getpass.getuser()
            unprivileged = (
                f"default_login_user = {me}\ndefault_internal_user = {me}\n"
                "service imap-login {\n  chroot =\n}\n"
            )
        return f"""\
instance_name = pbem-test-{root.name}
base_dir = {root}/run
state_dir = {root}/state
log_path = {self.log}
protocols = imap lmtp
listen = 127.0.0.1
ssl = yes
ssl_cert = <{self.cert}
ssl_key = <{self.key}
disable_plaintext_auth = no
auth_mechanisms = plain login
# Dovecot slows down a failed login, and then every login from the same address (anvil's auth
# penalty, off when its socket is unusable: mode 0 below); the tests fail some on purpose.
auth_failure_delay = 0
first_valid_uid = 1
mail_location = maildir:~/Maildir
# alice+g7@... is delivered to alice's INBOX (bench/scale.py gives each seat an address).
recipient_delimiter = +
{unprivileged}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%Lu {self.users}/%Lu
}}
userdb {{
  driver = static
  args = uid={self._uid} gid={self._gid} home={root}/mail/%Lu
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {self.imap_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {self.imaps_port}
    ssl = yes
  }}
}}
service anvil {{
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
service lmtp {{
  inet_listener lmtp {{
    address = 127.0.0.1
    port = {self.lmtp_port}
  }}
}}
"""


def _signal_group(group: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, signum)


def _wait_group_gone(group: int, *, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return
        time.sleep(0.02)
    _signal_group(group, signal.SIGKILL)


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost; it is its own CA."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
            "-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost",
            "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    key.chmod(0o600)
    return cert, key


def make_root() -> Path:
    # Not pytest's tmp_path: that lives under a 0700 directory, and Dovecot's mail processes
    # (as nobody when we are root) must reach their home directories.
    root = Path(tempfile.mkdtemp(prefix="pbem-mail-"))
    root.chmod(0o755)
    return root


def remove_root(root: Path) -> None:
    shutil.rmtree(root, ignore_errors=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(
    port: int,
    *,
    timeout: float = 10.0,
    process: subprocess.Popen[bytes] | None = None,
    log: Path | None = None,
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            detail = log.read_text(errors="replace") if log and log.exists() else ""
            raise RuntimeError(f"server exited with {process.returncode}:\n{detail}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.02)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {timeout}s")


def wait_for_port_closed(port: int, *, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                pass
        except OSError:
            return
        time.sleep(0.02)
    raise TimeoutError(f"127.0.0.1:{port} still accepts connections after {timeout}s")
