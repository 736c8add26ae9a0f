"""The static web archive: every game's public pages, each seat's own pages behind a link that
cannot be guessed, and the referees' desk, written as plain HTML and CSS into a folder any web
server can serve (docs/web.md). `pbem.web.archive` writes it; `pbem web build` and `pbem web
serve` are its commands."""
