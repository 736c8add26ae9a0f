"""Tests of the mail layer (pbem/mail)."""
