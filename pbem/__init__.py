"""The play-by-email moderator service: config, storage, mail, pipeline and command line.

Nothing in pbem/ knows a rule of any game; every rule lives behind engine.Ruleset.
"""
