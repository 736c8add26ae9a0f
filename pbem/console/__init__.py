"""The command line's parts beside pbem.cli: `pbem clock`, `pbem referee`, `pbem game
export`/`verify` and `pbem demo`. Runners (docs/architecture.md): nothing imports them but
pbem.cli."""
