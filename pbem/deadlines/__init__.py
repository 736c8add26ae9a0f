"""Deadline policies: the words a referee writes ("interval:2d", "weekly:mon,thu@18:00"), their
arithmetic, the text players read, and a game's clock options. Pure: no database, no mail.

A foundation (docs/architecture.md): the settings and every game layer import it."""
