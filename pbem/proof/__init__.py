"""Dice anyone can verify: the seed's commitment in the start mail, the game's export, and
replaying that export from the revealed seed (docs/dice.md)."""
