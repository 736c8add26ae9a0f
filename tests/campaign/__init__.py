"""Whole campaigns as players live them, by real mail (issue 36).

Bot players are mail clients of the Dovecot and SMTP relay of tests/servers: they send through
SMTP and read their mailboxes over IMAP, and compute their orders from the game's stored state
with the ruleset's bot (their brain). `pbem serve --once` moderates, one pass a step, on a
clock the campaign moves by hand (`--now`). A scripted referee pauses, resumes, extends, rolls
back, forces a turn and replaces a seat, by mail and on the command line, and scripted players
make the common mistakes. Afterwards the checker reads every mail every mailbox received,
with the log of what everybody sent and did, and lists what was wrong.

- record.py: what happened (mail sent, actions and turns) and what arrived, as plain data;
- reading.py: reading one received mail (its text, report data, pictures, deadlines);
- mailboxes.py: a participant's mailbox, read over IMAP step by step;
- players.py, referee.py: the participants and their scripted mistakes and actions;
- table.py: the game, the moderator and the clock, a step at a time;
- script.py: the campaign every ruleset plays, and each ruleset's game;
- planted.py: the secrets the campaign plants, and who may know each;
- checker.py: the invariants, each a function of checks_mail.py (who gets which mail),
  checks_told.py (what a seat is told), checks_turns.py (the turn flow), checks_reports.py
  (what a report shows) or checks_privacy.py (no secret reaches anyone not entitled to it);
- test_checker.py: the checker on made-up mail, each invariant shown to fail.
"""
